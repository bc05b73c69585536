import { z } from 'zod';
import { rpcSubject } from '../nats/subject.js';
import { ById, Scoped } from '../nats/request-fields.js';
import { IsoDateTimeSchema, ListParamsSchema } from '../common/common.js';
import { pageSchema } from '../common/paging.js';
import {
  CreateEnvironmentRequestSchema,
  EnvironmentDeletedSchema,
  EnvironmentSchema,
  UpdateEnvironmentRequestSchema,
} from './environments.js';

/** Create a key for an environment's self-hosted workers; `revoke_existing` makes it a rotation. */
export const CreateEnvironmentKeyRequestSchema = z.strictObject({ revoke_existing: z.boolean().optional() });
export type CreateEnvironmentKeyRequest = z.infer<typeof CreateEnvironmentKeyRequestSchema>;

/** An environment key as listed; `key` (the secret) is present only in the create reply. */
export const EnvironmentKeySchema = z.object({
  type: z.literal('environment_key'),
  id: z.string(),
  environment_id: z.string(),
  display: z.string(),
  key: z.string().optional(),
  created_at: IsoDateTimeSchema,
  last_used_at: IsoDateTimeSchema.nullable(),
  revoked_at: IsoDateTimeSchema.nullable(),
});
export type EnvironmentKey = z.infer<typeof EnvironmentKeySchema>;

/** Request/reply subjects of the control service for environments and their worker keys. */
export const EnvironmentSubjects = {
  createEnvironment: rpcSubject(
    'control.environment.create',
    z.object({ ...Scoped, body: CreateEnvironmentRequestSchema }),
    EnvironmentSchema,
  ),
  getEnvironment: rpcSubject('control.environment.get', z.object(ById), EnvironmentSchema),
  updateEnvironment: rpcSubject(
    'control.environment.update',
    z.object({ ...ById, body: UpdateEnvironmentRequestSchema }),
    EnvironmentSchema,
  ),
  listEnvironments: rpcSubject(
    'control.environment.list',
    z.object({ ...Scoped, query: ListParamsSchema }),
    pageSchema(EnvironmentSchema),
  ),
  archiveEnvironment: rpcSubject('control.environment.archive', z.object(ById), EnvironmentSchema),
  deleteEnvironment: rpcSubject('control.environment.delete', z.object(ById), EnvironmentDeletedSchema),
  createEnvironmentKey: rpcSubject(
    'control.environment.key_create',
    z.object({ ...ById, body: CreateEnvironmentKeyRequestSchema }),
    EnvironmentKeySchema,
  ),
  listEnvironmentKeys: rpcSubject(
    'control.environment.key_list',
    z.object(ById),
    pageSchema(EnvironmentKeySchema),
  ),
  revokeEnvironmentKey: rpcSubject(
    'control.environment.key_revoke',
    z.object({ ...ById, keyId: z.string().min(1) }),
    EnvironmentKeySchema,
  ),
} as const;
