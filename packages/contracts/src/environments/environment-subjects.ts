import { z } from 'zod';
import { entitySubjects } from '../nats/entity-subjects.js';
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

const environment = entitySubjects('control.environment', EnvironmentSchema);

/** Request/reply subjects of the control service for environments and their worker keys. */
export const EnvironmentSubjects = {
  createEnvironment: environment.create(CreateEnvironmentRequestSchema),
  getEnvironment: environment.get(),
  updateEnvironment: environment.update(UpdateEnvironmentRequestSchema),
  listEnvironments: environment.list(ListParamsSchema),
  archiveEnvironment: environment.onItem('archive'),
  deleteEnvironment: environment.onItem('delete', EnvironmentDeletedSchema),
  createEnvironmentKey: environment.onItem('key_create', EnvironmentKeySchema, {
    body: CreateEnvironmentKeyRequestSchema,
  }),
  listEnvironmentKeys: environment.onItem('key_list', pageSchema(EnvironmentKeySchema)),
  revokeEnvironmentKey: environment.onItem('key_revoke', EnvironmentKeySchema, { keyId: z.string().min(1) }),
} as const;
