import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { Api } from '../api.js';
import { readLockFile, writeLockFile, type LockFile } from '../apply/lock-file.js';
import { describePlan, planApply, type PlannedStep } from '../apply/plan.js';
import { KIND_PATHS, readResourceFolder } from '../apply/resource-files.js';
import { CliError, EXIT } from '../errors.js';
import type { Context } from '../context.js';

/** `agentry apply <folder>`: resources as code, with a plan of field changes before anything changes. */
export function registerApply(program: Command, context: Context): void {
  program
    .command('apply <folder>')
    .description(
      'create or update the agents, environments, vaults, memory stores and deployments a folder declares',
    )
    .option('--dry-run', 'print the plan and change nothing')
    .action(async (folder: string, flags: { dryRun?: boolean }) => {
      if (!existsSync(folder)) throw new CliError(`no folder ${folder}`, EXIT.usage);
      const api = context.api();
      const resources = readResourceFolder(folder);
      const lock = readLockFile(folder);
      const steps = await planApply(api, resources, lock);
      const changing = steps.filter((s) => s.action !== 'unchanged');
      if (context.json() && flags.dryRun)
        process.stdout.write(`${JSON.stringify(steps.map(summary), null, 2)}\n`);
      else process.stdout.write(describePlan(steps));
      if (flags.dryRun || changing.length === 0) return;
      for (const step of changing) {
        const result = await applyStep(api, step, lock);
        lock[step.resource.file] = {
          kind: step.resource.kind,
          id: result.id,
          version: typeof result.version === 'number' ? result.version : null,
          applied: step.resource.body,
        };
        writeLockFile(folder, lock);
        const version = typeof result.version === 'number' ? ` version ${result.version}` : '';
        process.stdout.write(
          `${step.action === 'create' ? 'created' : 'updated'} ${step.resource.file} → ${result.id}${version}\n`,
        );
      }
    });
}

async function applyStep(
  api: Api,
  step: PlannedStep,
  lock: LockFile,
): Promise<{ id: string; version?: number }> {
  const path = KIND_PATHS[step.resource.kind];
  const body = resolveReferences(step.resource.body, lock);
  if (step.action === 'create') return api.call('POST', path, body);
  if (step.action !== 'update') throw new Error('unreachable');
  const current = await api.call<{ version?: number }>('GET', `${path}/${step.id}`);
  const changed = Object.fromEntries(
    step.changes.filter((c) => c.after !== undefined).map((c) => [c.field, body[c.field]]),
  );
  const versioned = typeof current.version === 'number' ? { version: current.version } : {};
  return api.call('POST', `${path}/${step.id}`, { ...changed, ...versioned });
}

/** A value naming another file of the folder (`agent: agents/helper.md`) becomes that resource's id. */
function resolveReferences(body: Record<string, unknown>, lock: LockFile): Record<string, unknown> {
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') return lock[value.replace(/^\.\//, '')]?.id ?? value;
    if (Array.isArray(value)) return value.map(resolve);
    return value;
  };
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key, key === 'system' ? value : resolve(value)]),
  );
}

function summary(step: PlannedStep) {
  return {
    action: step.action,
    kind: step.resource.kind,
    file: step.resource.file,
    ...(step.action === 'create' ? {} : { id: step.id }),
    ...(step.action === 'update' ? { changes: step.changes.map((c) => c.field) } : {}),
  };
}
