import { z } from 'zod';
import { pageSchema } from '../common/paging.js';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import {
  CheckpointSchema,
  ListCheckpointsParamsSchema,
  RollbackSessionRequestSchema,
} from './checkpoints.js';

const JsonRecordSchema = z.record(z.string(), z.unknown());
const OnSession = { v: V1, actor: ActorSchema, id: z.string().min(1) };

export const RollbackResultSchema = z.object({
  type: z.literal('session_rollback'),
  session_id: z.string(),
  checkpoint_id: z.string(),
  /** The `session.rolled_back` event that marks the branch point in the log. */
  event_id: z.string(),
});
export type RollbackResult = z.infer<typeof RollbackResultSchema>;

/** The new session's row of a fork: control resolves the agent, the dataplane copies the rest. */
const ForkTargetSchema = z.object({
  id: z.string().min(1),
  agentId: z.string().min(1),
  agentVersion: z.number().int().positive(),
  spec: JsonRecordSchema,
});

/** Checkpoints of a session's turn boundaries (Agentry extension), kept and served by the dataplane. */
export const CheckpointSubjects = {
  list: rpcSubject(
    'dataplane.checkpoints.list',
    z.object({ ...OnSession, query: ListCheckpointsParamsSchema }),
    pageSchema(CheckpointSchema),
  ),
  /** A new session whose log is the source's up to the checkpoint and whose workspace is the checkpoint's. */
  fork: rpcSubject(
    'dataplane.checkpoints.fork',
    z.object({
      ...OnSession,
      checkpointId: z.string().optional(),
      eventId: z.string().optional(),
      target: ForkTargetSchema,
    }),
    z.object({ id: z.string() }),
  ),
  rollback: rpcSubject(
    'dataplane.checkpoints.rollback',
    z.object({ ...OnSession, body: RollbackSessionRequestSchema }),
    RollbackResultSchema,
  ),
} as const;

/** Any worker writes a checkpoint's workspace into a session's durable Hands copy (the worker owns it). */
export const CheckpointRestoreSubject = rpcSubject(
  'hands.checkpoint.restore',
  z.object({ v: V1, tenantId: z.string(), sessionId: z.string(), checkpointId: z.string() }),
  z.object({ entries: z.number().int() }),
);
