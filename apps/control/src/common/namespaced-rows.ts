import type { Actor } from '@agentry/contracts';

/** One page of a namespace's archivable rows (stores, vaults, their credentials), ordered by id. */
export interface ArchivableListOptions {
  limit: number;
  afterId?: string;
  order: 'asc' | 'desc';
  includeArchived: boolean;
}

/** The row `id` if it is in the actor's namespace: another namespace's row is simply not found. */
export function inNamespace(actor: Actor, id: string) {
  return { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId };
}

/** `findMany` arguments for one page of the actor's rows. */
export function archivablePage(actor: Actor, options: ArchivableListOptions) {
  return {
    where: {
      tenantId: actor.tenantId,
      namespaceId: actor.namespaceId,
      ...(options.includeArchived ? {} : { archivedAt: null }),
      ...(options.afterId
        ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }
        : {}),
    },
    orderBy: { id: options.order },
    take: options.limit,
  };
}
