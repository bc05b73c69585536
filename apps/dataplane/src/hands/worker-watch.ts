import type { HandsBindings } from './hands-bindings.js';

/** Resolves `died` once the worker's heartbeat lapses; `stop` ends the watch. */
export function watchWorker(
  bindings: HandsBindings,
  workerId: string,
  pollMs: number,
): { died: Promise<'died'>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const died = new Promise<'died'>((resolve) => {
    const check = async () => {
      if (stopped) return;
      // A failed check (Redis away) says nothing about the worker: keep waiting for its answer.
      const alive = await bindings.isAlive(workerId).catch(() => true);
      if (stopped) return;
      if (!alive) resolve('died');
      else timer = setTimeout(() => void check(), pollMs);
    };
    timer = setTimeout(() => void check(), pollMs);
  });
  return {
    died,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
