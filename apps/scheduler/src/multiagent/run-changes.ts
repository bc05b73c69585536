import { Injectable } from '@nestjs/common';
import { MultiagentRunSchema, PubSubjects, type MultiagentRun } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';

/** Every change of a run is published whole on `marun.<id>`, for waiting requests and streams. */
@Injectable()
export class RunChanges {
  constructor(private readonly bus: NatsBus) {}

  announce(run: MultiagentRun): void {
    this.bus.publish(PubSubjects.multiagentRun(run.id), run);
  }

  /** Calls `onChange` for each change from now on; subscribed on the server before it resolves. */
  async watch(runId: string, onChange: (run: MultiagentRun) => void): Promise<() => void> {
    const stop = this.bus.subscribe(PubSubjects.multiagentRun(runId), (message) => {
      const parsed = MultiagentRunSchema.safeParse(message);
      if (parsed.success) onChange(parsed.data);
    });
    await this.bus.flush();
    return stop;
  }
}
