import { entitySubjects } from '../nats/entity-subjects.js';
import { ForkSessionRequestSchema } from './checkpoints.js';
import {
  CreateSessionRequestSchema,
  ListSessionsParamsSchema,
  SessionDeletedSchema,
  SessionSchema,
  UpdateSessionRequestSchema,
} from './sessions.js';

const session = entitySubjects('control.session', SessionSchema);

/** Request/reply subjects of the control service for sessions. */
export const SessionSubjects = {
  createSession: session.create(CreateSessionRequestSchema),
  getSession: session.get(),
  listSessions: session.list(ListSessionsParamsSchema),
  updateSession: session.update(UpdateSessionRequestSchema),
  archiveSession: session.onItem('archive'),
  /** Agentry extension (AgentScope `restore`): un-archives a session so it accepts events again. */
  restoreSession: session.onItem('restore'),
  deleteSession: session.onItem('delete', SessionDeletedSchema),
  /** Agentry extension: a new session from a checkpoint of this one (see CheckpointSubjects.fork). */
  forkSession: session.onItem('fork', SessionSchema, { body: ForkSessionRequestSchema }),
} as const;
