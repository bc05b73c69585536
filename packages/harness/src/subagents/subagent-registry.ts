import { AppError } from '@agentry/contracts';
import { DEFAULT_SUBAGENT_MAX_ITERS, type SubagentDeclaration, type SubagentSpec } from './subagent-spec.js';

const SUBAGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The sub-agents one harness can spawn. Later registrations replace earlier ones with the same id. */
export class SubagentRegistry {
  private readonly specs = new Map<string, SubagentSpec>();

  constructor(specs: readonly SubagentSpec[] = []) {
    for (const spec of specs) this.specs.set(spec.id, spec);
  }

  /** Registers a code-declared sub-agent; it overrides a file declaration with the same id. */
  register(declaration: SubagentDeclaration): SubagentSpec {
    if (!SUBAGENT_ID.test(declaration.id)) {
      throw new AppError(
        'INVALID_REQUEST',
        `Invalid sub-agent id "${declaration.id}" (letters, digits, . _ - only)`,
      );
    }
    const spec: SubagentSpec = {
      ...declaration,
      workspaceMode: declaration.workspaceMode ?? 'isolated',
      maxIters: declaration.maxIters ?? DEFAULT_SUBAGENT_MAX_ITERS,
      source: 'code',
    };
    this.specs.set(spec.id, spec);
    return spec;
  }

  get(id: string): SubagentSpec | undefined {
    return this.specs.get(id);
  }

  list(): SubagentSpec[] {
    return [...this.specs.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}
