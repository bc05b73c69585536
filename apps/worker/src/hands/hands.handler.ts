import { Controller } from '@nestjs/common';
import { HandsSubjects as S, type HandsExecRequest, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler, startChildSpan, withSpan } from '@agentry/platform';
import { HandsExecService } from './hands-exec.service.js';
import { WORKER_ID } from './worker-identity.js';

/** The calls of sessions bound to this worker (see HandsRegistry); the pool subject takes unbound ones. */
const OWN = S.execOn(WORKER_ID);

@Controller()
export class HandsHandler {
  constructor(private readonly hands: HandsExecService) {}

  @RpcHandler(S.exec)
  exec(req: RpcParsedRequest<typeof S.exec>) {
    return this.run(req);
  }

  @RpcHandler(OWN)
  execBound(req: RpcParsedRequest<typeof OWN>) {
    return this.run(req);
  }

  private async run(req: HandsExecRequest) {
    // A copy of a call under way (the Brain sends again while it waits) is no call of its own: no span.
    const copy = this.hands.copyOf(req.toolUseId);
    if (copy) return copy;
    const span = startChildSpan(`execute_tool ${req.name}`, 'internal', {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': req.name,
      'gen_ai.tool.call.id': req.toolUseId,
      'agentry.environment.type': req.environmentType,
    });
    try {
      const result = await withSpan(span, () => this.hands.execute(req));
      if (result.isError) span.setAttribute('error.type', result.reason ?? 'tool_error');
      return result;
    } finally {
      span.end();
    }
  }
}
