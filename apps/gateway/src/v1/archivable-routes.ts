import { ListParamsSchema } from '@agentry/contracts/v1';
import type { z } from 'zod';
import type { RpcRoute } from '../http/rpc-routes.js';

type Subject = RpcRoute['subject'];

/** The subjects and bodies behind the CMA routes of an archivable catalog. */
export interface ArchivableSubjects {
  create: Subject;
  createBody: z.ZodType;
  list: Subject;
  get: Subject;
  update: Subject;
  updateBody: z.ZodType;
  archive: Subject;
  delete: Subject;
}

/**
 * The `/v1` routes every archivable catalog (vaults, credentials, memory stores, environments) answers alike,
 * in the order they are documented: create, list, get, update, archive and delete.
 */
export function archivableRoutes(s: ArchivableSubjects): Record<string, RpcRoute> {
  return {
    create: { route: 'POST', subject: s.create, body: s.createBody },
    list: { route: 'GET', subject: s.list, query: ListParamsSchema },
    get: { route: 'GET :id', subject: s.get },
    update: { route: 'POST :id', subject: s.update, body: s.updateBody },
    archive: { route: 'POST :id/archive', subject: s.archive },
    delete: { route: 'DELETE :id', subject: s.delete },
  };
}
