import { isDeepStrictEqual } from 'node:util';
import { diffLines } from 'diff';
import type { Api } from '../api.js';
import { CliError } from '../errors.js';
import type { LockFile } from './lock-file.js';
import { KIND_PATHS, type DeclaredResource } from './resource-files.js';

interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export type PlannedStep =
  | { action: 'create'; resource: DeclaredResource }
  | { action: 'update'; resource: DeclaredResource; id: string; changes: FieldChange[]; drifted: boolean }
  | { action: 'unchanged'; resource: DeclaredResource; id: string };

/**
 * What apply would do: files not in the lock (or whose resource is gone) are created; files whose
 * fields differ from what was applied last, or whose resource was changed elsewhere, are updated.
 */
export async function planApply(
  api: Api,
  resources: DeclaredResource[],
  lock: LockFile,
): Promise<PlannedStep[]> {
  const steps: PlannedStep[] = [];
  for (const resource of resources) {
    const entry = lock[resource.file];
    const remote = entry ? await fetchRemote(api, resource, entry.id) : null;
    if (!entry || !remote) {
      steps.push({ action: 'create', resource });
      continue;
    }
    const changes = fieldChanges(entry.applied, resource.body);
    const drifted =
      entry.version !== null && typeof remote.version === 'number' && remote.version !== entry.version;
    if (changes.length === 0 && !drifted) steps.push({ action: 'unchanged', resource, id: entry.id });
    else
      steps.push({
        action: 'update',
        resource,
        id: entry.id,
        changes: drifted && changes.length === 0 ? fieldChanges({}, resource.body) : changes,
        drifted,
      });
  }
  return steps;
}

function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return fields
    .filter((field) => !isDeepStrictEqual(before[field], after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

async function fetchRemote(
  api: Api,
  resource: DeclaredResource,
  id: string,
): Promise<{ version?: number } | null> {
  try {
    const remote = await api.call<{ version?: number; archived_at?: string | null }>(
      'GET',
      `${KIND_PATHS[resource.kind]}/${id}`,
    );
    return remote.archived_at ? null : remote;
  } catch (error) {
    if (error instanceof CliError && error.exitCode === 4) return null;
    throw error;
  }
}

/** The plan as a person reads it: one line per file, and each changed field with a line diff. */
export function describePlan(steps: PlannedStep[]): string {
  const lines: string[] = [];
  for (const step of steps) {
    const { kind, file } = step.resource;
    if (step.action === 'create') lines.push(`+ create ${kind} ${file}`);
    if (step.action === 'unchanged') lines.push(`= unchanged ${kind} ${file} (${step.id})`);
    if (step.action === 'update') {
      lines.push(`~ update ${kind} ${file} (${step.id})${step.drifted ? ' — changed outside apply' : ''}`);
      for (const change of step.changes) lines.push(...describeChange(change));
    }
  }
  const count = (action: PlannedStep['action']) => steps.filter((s) => s.action === action).length;
  lines.push(
    `Plan: ${count('create')} to create, ${count('update')} to update, ${count('unchanged')} unchanged.`,
  );
  return `${lines.join('\n')}\n`;
}

function describeChange(change: FieldChange): string[] {
  const text = (value: unknown) =>
    value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const out = [`    ${change.field}:`];
  for (const part of diffLines(text(change.before), text(change.after))) {
    const mark = part.added ? '+' : part.removed ? '-' : ' ';
    for (const line of part.value.replace(/\n$/, '').split('\n')) out.push(`      ${mark} ${line}`);
  }
  return out;
}
