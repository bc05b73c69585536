/** A workflow run's plan as the agent writes it: phases run in order, the threads of a phase at once. */
interface WorkflowStep {
  agent: string;
  message: string;
  inline_agent?: unknown;
}
interface WorkflowPhase {
  name: string;
  description: string | null;
  threads: WorkflowStep[];
}
export interface WorkflowPlan {
  phases: WorkflowPhase[];
}

/** Threads one run may start (CMA's roster limit); more is a `thread_limit_error`. */
const MAX_RUN_THREADS = 20;

export class PlanError extends Error {
  constructor(
    readonly type: 'program_error' | 'thread_limit_error',
    message: string,
  ) {
    super(message);
  }
}

/** Checks the plan's shape; which agents a step names is checked when its phase starts. */
export function parsePlan(value: unknown): WorkflowPlan {
  const phases = (value as { phases?: unknown } | null)?.phases;
  if (!Array.isArray(phases) || phases.length === 0)
    throw new PlanError('program_error', 'The plan needs a non-empty `phases` list.');
  let threads = 0;
  const parsed = phases.map((phase: unknown, i): WorkflowPhase => {
    const { name, description, threads: steps } = (phase ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || name.trim() === '')
      throw new PlanError('program_error', `Phase ${i + 1} needs a name.`);
    if (!Array.isArray(steps) || steps.length === 0)
      throw new PlanError('program_error', `Phase ${i + 1} needs a non-empty \`threads\` list.`);
    threads += steps.length;
    return {
      name,
      description: typeof description === 'string' ? description : null,
      threads: steps.map((step: unknown, j) => {
        const { agent, message, inline_agent } = (step ?? {}) as Record<string, unknown>;
        if (typeof agent !== 'string' || typeof message !== 'string' || message.trim() === '')
          throw new PlanError(
            'program_error',
            `Thread ${j + 1} of phase ${i + 1} needs an agent and a message.`,
          );
        return { agent, message, ...(inline_agent !== undefined ? { inline_agent } : {}) };
      }),
    };
  });
  if (threads > MAX_RUN_THREADS)
    throw new PlanError('thread_limit_error', `A run may start at most ${MAX_RUN_THREADS} threads.`);
  return { phases: parsed };
}
