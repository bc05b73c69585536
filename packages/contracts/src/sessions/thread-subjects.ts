import { z } from 'zod';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import { SessionThreadSchema, SessionThreadStatusSchema } from './session-threads.js';

const ThreadRefSchema = z.object({
  v: V1,
  actor: ActorSchema,
  sessionId: z.string().min(1),
  threadId: z.string().min(1),
});

const ListThreadsRpcRequestSchema = z.object({
  v: V1,
  actor: ActorSchema,
  sessionId: z.string().min(1),
  limit: z.number().int().min(1).max(1000),
  /** Threads after this many (the cursor `next_page` carries). */
  offset: z.number().int().nonnegative().default(0),
  statuses: z.array(SessionThreadStatusSchema).optional(),
});
export type ListThreadsRpcRequest = z.infer<typeof ListThreadsRpcRequestSchema>;

/** Session threads live with the session's run-time state, in the dataplane. */
export const ThreadSubjects = {
  list: rpcSubject(
    'dataplane.threads.list',
    ListThreadsRpcRequestSchema,
    z.object({ data: z.array(SessionThreadSchema), hasMore: z.boolean() }),
  ),
  get: rpcSubject('dataplane.threads.get', ThreadRefSchema, SessionThreadSchema),
  archive: rpcSubject('dataplane.threads.archive', ThreadRefSchema, SessionThreadSchema),
} as const;
