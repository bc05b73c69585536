import { Injectable } from '@nestjs/common';
import { AppError, type WorkPrincipal } from '@agentry/contracts';
import type { WorkItem } from '@agentry/db';
import { WorkItemsRepository, type EnvScope } from './work-items.repository.js';

/**
 * Who may touch what: an environment-key principal any item of its environment, a sessions-token
 * principal only its own item. Anything outside that is not found, never forbidden.
 */
@Injectable()
export class WorkAccess {
  constructor(private readonly items: WorkItemsRepository) {}

  /** The principal's environment, checked against its tenant and namespace. */
  async environment(principal: WorkPrincipal): Promise<EnvScope> {
    if (
      !(await this.items.environmentInNamespace(
        principal.tenantId,
        principal.namespaceId,
        principal.environmentId,
      ))
    ) {
      throw new AppError('NOT_FOUND', `Environment ${principal.environmentId} not found`);
    }
    return { tenantId: principal.tenantId, environmentId: principal.environmentId };
  }

  /** The scope for one item, refusing a sessions token minted for another item. */
  async item(principal: WorkPrincipal, workId: string): Promise<EnvScope> {
    if (principal.workId !== null && principal.workId !== workId) throw notFound(workId);
    return this.environment(principal);
  }

  /** Operations over the whole queue need the environment's key, not one item's token. */
  environmentKeyOnly(principal: WorkPrincipal, action: string): void {
    if (principal.workId !== null)
      throw new AppError(
        'PERMISSION_DENIED',
        `A work item's sessions token cannot ${action}; use the environment key`,
      );
  }

  async existing(scope: EnvScope, workId: string): Promise<WorkItem> {
    const row = await this.items.find(scope, workId);
    if (!row) throw notFound(workId);
    return row;
  }
}

function notFound(workId: string): AppError {
  return new AppError('NOT_FOUND', `Work ${workId} not found`);
}
