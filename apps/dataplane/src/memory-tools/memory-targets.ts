import { AppError, MemoryPathSchema } from '@agentry/contracts';
import { inputText } from '@agentry/harness';
import type { SessionMemoryStore } from '../mounts/resource-mounts.js';

/**
 * The stores a memory tool call works on. `store` names one by name or id; left out, it means every store
 * for a read, and the one store a write can go to when there is exactly one.
 */
export function storesFor(
  stores: readonly SessionMemoryStore[],
  store: unknown,
  writing: boolean,
): SessionMemoryStore[] {
  const candidates = writing ? stores.filter((s) => s.access === 'read_write') : [...stores];
  if (store === undefined || store === null || store === '') {
    if (!writing || candidates.length === 1) return candidates;
    throw new AppError(
      'INVALID_REQUEST',
      `store: name one of the stores you can write to (${candidates.map((s) => s.name).join(', ')})`,
    );
  }
  const named = stores.find((s) => s.name === store || s.storeId === store);
  if (!named)
    throw new AppError(
      'INVALID_REQUEST',
      `store: no memory store "${inputText(store)}" in this session (${stores.map((s) => s.name).join(', ')})`,
    );
  if (writing && named.access !== 'read_write')
    throw new AppError('PERMISSION_DENIED', `store: the memory store "${named.name}" is read-only`);
  return [named];
}

/** A memory path as the store spells it: absolute (`notes/a.md` is `/notes/a.md`), checked as the API checks it. */
export function memoryPath(path: unknown): string {
  const raw = typeof path === 'string' ? path.trim() : '';
  const absolute = raw.startsWith('/') ? raw : `/${raw}`;
  const checked = MemoryPathSchema.safeParse(absolute);
  if (!checked.success)
    throw new AppError(
      'INVALID_REQUEST',
      `path: ${checked.error.issues.map((issue) => issue.message).join('; ')}`,
    );
  return checked.data;
}
