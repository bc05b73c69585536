import { z } from 'zod';
import { Scoped } from '../nats/request-fields.js';
import { entitySubjects } from '../nats/entity-subjects.js';
import { ListParamsSchema } from '../common/common.js';
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

const store = entitySubjects('control.memory_store', MemoryStoreSchema);
const InStore = { ...Scoped, storeId: z.string().min(1) };
const memory = entitySubjects('control.memory', MemorySchema, InStore);
const version = entitySubjects('control.memory_version', MemoryVersionSchema, InStore);
/** `?view=` of memory endpoints; left out, retrieve answers `full` and writes answer `basic`. */
const View = { query: z.object({ view: MemoryViewSchema.optional() }).default({}) };

/** Request/reply subjects of the control service for memory stores, their memories and versions. */
export const MemoryStoreSubjects = {
  createMemoryStore: store.create(CreateMemoryStoreRequestSchema),
  getMemoryStore: store.get(),
  updateMemoryStore: store.update(UpdateMemoryStoreRequestSchema),
  listMemoryStores: store.list(ListParamsSchema),
  archiveMemoryStore: store.onItem('archive'),
  deleteMemoryStore: store.onItem('delete', MemoryStoreDeletedSchema),
  createMemory: memory.create(CreateMemoryRequestSchema, View),
  getMemory: memory.get(View),
  updateMemory: memory.update(UpdateMemoryRequestSchema, View),
  listMemories: memory.list(ListMemoriesParamsSchema, MemoryListItemSchema),
  deleteMemory: memory.onItem('delete', MemoryDeletedSchema),
  getMemoryVersion: version.get(View),
  listMemoryVersions: version.list(ListMemoryVersionsParamsSchema),
  redactMemoryVersion: version.onItem('redact'),
} as const;
