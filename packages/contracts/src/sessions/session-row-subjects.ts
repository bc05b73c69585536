import { z } from 'zod';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';

/**
 * The `sessions` table belongs to the dataplane. Control validates a session's definition and resolves its
 * frozen runtime spec, then asks the dataplane to store it: these subjects are the only way another service
 * writes a session row. None of them is on the turn path.
 */
const JsonRecordSchema = z.record(z.string(), z.unknown());

const SessionRowRefSchema = z.object({ v: V1, actor: ActorSchema, id: z.string().min(1) });

const NewSessionRowSchema = z.object({
  id: z.string().min(1),
  agentId: z.string().min(1),
  agentVersion: z.number().int().positive(),
  environmentId: z.string().min(1),
  title: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  spec: JsonRecordSchema,
  resources: z.array(z.unknown()),
  vaultIds: z.array(z.string()),
  budget: JsonRecordSchema.nullable(),
  /** Set when a deployment run created the session. */
  deploymentId: z.string().nullable().default(null),
});
export type NewSessionRow = z.input<typeof NewSessionRowSchema>;

/** The fields control may change on a session definition; `budget: null` removes the budget. */
const SessionRowChangesSchema = z.object({
  title: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  budget: JsonRecordSchema.nullable().optional(),
  vaultIds: z.array(z.string()).optional(),
  spec: JsonRecordSchema.optional(),
});
export type SessionRowChanges = z.infer<typeof SessionRowChangesSchema>;

const ChangedSchema = z.object({ changed: z.boolean() });

export const SessionRowSubjects = {
  insert: rpcSubject(
    'dataplane.session-rows.insert',
    z.object({ v: V1, actor: ActorSchema, session: NewSessionRowSchema }),
    z.object({ id: z.string() }),
  ),
  update: rpcSubject(
    'dataplane.session-rows.update',
    SessionRowRefSchema.extend({ changes: SessionRowChangesSchema }),
    ChangedSchema,
  ),
  /** Archives unless a turn is running; `changed: false` when busy, already archived or gone. */
  archive: rpcSubject('dataplane.session-rows.archive', SessionRowRefSchema, ChangedSchema),
  restore: rpcSubject('dataplane.session-rows.restore', SessionRowRefSchema, ChangedSchema),
  /** Deletes unless a turn is running or input waits for one; `changed: false` otherwise. */
  delete: rpcSubject('dataplane.session-rows.delete', SessionRowRefSchema, ChangedSchema),
  /**
   * Replaces the resources list only if it still equals `expected` (compare-and-set), so two concurrent
   * edits never lose each other; `changed: false` tells the caller to read again and retry.
   */
  replaceResources: rpcSubject(
    'dataplane.session-rows.replace-resources',
    SessionRowRefSchema.extend({ expected: z.array(z.unknown()), next: z.array(z.unknown()) }),
    ChangedSchema,
  ),
  /**
   * Deletes an environment's sessions before the environment goes, unless one is still live (not archived):
   * then nothing is deleted and the live count is returned.
   */
  deleteForEnvironment: rpcSubject(
    'dataplane.session-rows.delete-for-environment',
    z.object({ v: V1, actor: ActorSchema, environmentId: z.string().min(1) }),
    z.object({ liveSessions: z.number().int().nonnegative() }),
  ),
} as const;
