import { z } from 'zod';
import { Scoped } from '../nats/request-fields.js';
import { entitySubjects } from '../nats/entity-subjects.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import { ListParamsSchema } from '../common/common.js';
import {
  AddSessionResourceRequestSchema,
  SessionResourceDeletedSchema,
  SessionResourceSchema,
  UpdateSessionResourceRequestSchema,
} from './session-resources.js';

const resource = entitySubjects('control.session_resource', SessionResourceSchema, {
  ...Scoped,
  sessionId: z.string().min(1),
});

/** A resource as the Hands need it to mount it: the public record plus, for a repository, its token. */
const RuntimeSessionResourceSchema = z.object({
  resource: SessionResourceSchema,
  /** Only where it is used (a clone on the Hands); never logged, stored in events or returned by a public route. */
  authorization_token: z.string().optional(),
});
export type RuntimeSessionResource = z.infer<typeof RuntimeSessionResourceSchema>;

/** What a session's tools changed in a read-write memory store mount: one entry per memory path (`null` content: removed). */
const MemoryWriteBackSchema = z.object({
  v: V1,
  tenantId: z.string().min(1),
  sessionId: z.string().min(1),
  memoryStoreId: z.string().min(1),
  changes: z
    .array(
      z.object({
        path: z.string().min(2).startsWith('/'),
        content: z.string().nullable(),
        /** The content's hash when the session's copy was made (null: the session created the file): the precondition. */
        base_content_sha256: z.string().nullable(),
      }),
    )
    .min(1)
    .max(1000),
});
export type MemoryWriteBack = z.infer<typeof MemoryWriteBackSchema>;

/** `/v1/sessions/{id}/resources` (CMA), and the internal run-time read of a session's resources. */
export const SessionResourceSubjects = {
  list: resource.list(ListParamsSchema),
  add: resource.onScope('add', SessionResourceSchema, { body: AddSessionResourceRequestSchema }),
  get: resource.get(),
  update: resource.update(UpdateSessionResourceRequestSchema),
  delete: resource.onItem('delete', SessionResourceDeletedSchema),
  /** Internal (dataplane → control): not reachable from any public route; the reply carries tokens. */
  resolve: rpcSubject(
    'control.session_resource.resolve',
    z.object({ v: V1, tenantId: z.string().min(1), sessionId: z.string().min(1) }),
    z.object({ resources: z.array(RuntimeSessionResourceSchema) }),
  ),
  /**
   * Internal (worker → control): writes a session's changes to a memory store it mounts read-write, each
   * a new memory version attributed to the session. Refused unless the session holds the store read-write.
   */
  writeMemories: rpcSubject(
    'control.session_resource.write_memories',
    MemoryWriteBackSchema,
    z.object({
      written: z.array(
        z.object({
          path: z.string(),
          memory_id: z.string(),
          operation: z.enum(['created', 'modified', 'deleted']),
        }),
      ),
    }),
  ),
} as const;
