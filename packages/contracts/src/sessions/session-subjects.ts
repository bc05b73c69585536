import { z } from 'zod';
import { rpcSubject } from '../nats/subject.js';
import { ById, Scoped } from '../nats/request-fields.js';
import { pageSchema } from '../common/paging.js';
import {
  CreateSessionRequestSchema,
  ListSessionsParamsSchema,
  SessionDeletedSchema,
  SessionSchema,
  UpdateSessionRequestSchema,
} from './sessions.js';

/** Request/reply subjects of the control service for sessions. */
export const SessionSubjects = {
  createSession: rpcSubject(
    'control.session.create',
    z.object({ ...Scoped, body: CreateSessionRequestSchema }),
    SessionSchema,
  ),
  getSession: rpcSubject('control.session.get', z.object(ById), SessionSchema),
  listSessions: rpcSubject(
    'control.session.list',
    z.object({ ...Scoped, query: ListSessionsParamsSchema }),
    pageSchema(SessionSchema),
  ),
  updateSession: rpcSubject(
    'control.session.update',
    z.object({ ...ById, body: UpdateSessionRequestSchema }),
    SessionSchema,
  ),
  archiveSession: rpcSubject('control.session.archive', z.object(ById), SessionSchema),
  /** Agentry extension (AgentScope `restore`): un-archives a session so it accepts events again. */
  restoreSession: rpcSubject('control.session.restore', z.object(ById), SessionSchema),
  deleteSession: rpcSubject('control.session.delete', z.object(ById), SessionDeletedSchema),
} as const;
