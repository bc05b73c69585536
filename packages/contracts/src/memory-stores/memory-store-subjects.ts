import { z } from 'zod';
import { rpcSubject } from '../nats/subject.js';
import { ById, Scoped } from '../nats/request-fields.js';
import { ListParamsSchema } from '../common/common.js';
import { pageSchema } from '../common/paging.js';
import {
  CreateMemoryRequestSchema,
  CreateMemoryStoreRequestSchema,
  ListMemoriesParamsSchema,
  ListMemoryVersionsParamsSchema,
  MemoryDeletedSchema,
  MemoryListItemSchema,
  MemorySchema,
  MemoryStoreDeletedSchema,
  MemoryStoreSchema,
  MemoryVersionSchema,
  MemoryViewSchema,
  UpdateMemoryRequestSchema,
  UpdateMemoryStoreRequestSchema,
} from './memory-stores.js';

const InStore = { ...Scoped, storeId: z.string().min(1) };
/** `?view=` of memory endpoints; left out, retrieve answers `full` and writes answer `basic`. */
const ViewQuery = z.object({ view: MemoryViewSchema.optional() }).default({});

/** Request/reply subjects of the control service for memory stores, their memories and versions. */
export const MemoryStoreSubjects = {
  createMemoryStore: rpcSubject(
    'control.memory_store.create',
    z.object({ ...Scoped, body: CreateMemoryStoreRequestSchema }),
    MemoryStoreSchema,
  ),
  getMemoryStore: rpcSubject('control.memory_store.get', z.object(ById), MemoryStoreSchema),
  updateMemoryStore: rpcSubject(
    'control.memory_store.update',
    z.object({ ...ById, body: UpdateMemoryStoreRequestSchema }),
    MemoryStoreSchema,
  ),
  listMemoryStores: rpcSubject(
    'control.memory_store.list',
    z.object({ ...Scoped, query: ListParamsSchema }),
    pageSchema(MemoryStoreSchema),
  ),
  archiveMemoryStore: rpcSubject('control.memory_store.archive', z.object(ById), MemoryStoreSchema),
  deleteMemoryStore: rpcSubject('control.memory_store.delete', z.object(ById), MemoryStoreDeletedSchema),
  createMemory: rpcSubject(
    'control.memory.create',
    z.object({ ...InStore, body: CreateMemoryRequestSchema, query: ViewQuery }),
    MemorySchema,
  ),
  getMemory: rpcSubject(
    'control.memory.get',
    z.object({ ...InStore, id: z.string().min(1), query: ViewQuery }),
    MemorySchema,
  ),
  updateMemory: rpcSubject(
    'control.memory.update',
    z.object({ ...InStore, id: z.string().min(1), body: UpdateMemoryRequestSchema, query: ViewQuery }),
    MemorySchema,
  ),
  listMemories: rpcSubject(
    'control.memory.list',
    z.object({ ...InStore, query: ListMemoriesParamsSchema }),
    pageSchema(MemoryListItemSchema),
  ),
  deleteMemory: rpcSubject(
    'control.memory.delete',
    z.object({ ...InStore, id: z.string().min(1) }),
    MemoryDeletedSchema,
  ),
  getMemoryVersion: rpcSubject(
    'control.memory_version.get',
    z.object({ ...InStore, id: z.string().min(1), query: ViewQuery }),
    MemoryVersionSchema,
  ),
  listMemoryVersions: rpcSubject(
    'control.memory_version.list',
    z.object({ ...InStore, query: ListMemoryVersionsParamsSchema }),
    pageSchema(MemoryVersionSchema),
  ),
  redactMemoryVersion: rpcSubject(
    'control.memory_version.redact',
    z.object({ ...InStore, id: z.string().min(1) }),
    MemoryVersionSchema,
  ),
} as const;
