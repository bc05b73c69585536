import { z } from 'zod';
import { ActorSchema } from './actor.js';
import { rpcSubject, V1 } from './subject.js';
import { pageOf } from './control-subjects.js';
import { ListParamsSchema } from '../common/common.js';
import {
  CreateVaultRequestSchema,
  UpdateVaultRequestSchema,
  VaultDeletedSchema,
  VaultSchema,
} from '../vaults/vaults.js';
import {
  CreateCredentialRequestSchema,
  CredentialDeletedSchema,
  CredentialSchema,
  UpdateCredentialRequestSchema,
} from '../vaults/vault-credentials.js';
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
} from '../memory-stores/memory-stores.js';
import {
  CreateDeploymentRequestSchema,
  DeploymentRunSchema,
  DeploymentSchema,
  ListDeploymentRunsParamsSchema,
  ListDeploymentsParamsSchema,
  UpdateDeploymentRequestSchema,
} from '../deployments/deployments.js';
import { FileDeletedSchema, FileMetadataSchema, ListFilesParamsSchema } from '../files/files.js';
import {
  ListSkillsParamsSchema,
  SkillDeletedSchema,
  SkillSchema,
  SkillVersionSchema,
} from '../skills/skills.js';

const Scoped = { v: V1, actor: ActorSchema };
const ById = { ...Scoped, id: z.string().min(1) };
const InVault = { ...Scoped, vaultId: z.string().min(1) };
const InStore = { ...Scoped, storeId: z.string().min(1) };
/** `?view=` of memory endpoints; left out, retrieve answers `full` and writes answer `basic`. */
const ViewQuery = z.object({ view: MemoryViewSchema.optional() }).default({});

/** A file's bytes travel base64-encoded inside one NATS message, so uploads are bounded by its size. */
export const UploadFileRpcBodySchema = z.object({
  filename: z.string().min(1).max(255),
  mime_type: z.string().min(1).max(255),
  content_base64: z.string(),
});
export const FileContentSchema = z.object({
  filename: z.string(),
  mime_type: z.string(),
  content_base64: z.string(),
});

/** An uploaded skill folder: each file's path inside the upload and its bytes. */
export const SkillUploadSchema = z.object({
  files: z.array(z.object({ path: z.string().min(1).max(1024), content_base64: z.string() })).max(200),
});
const SkillVersionRef = { skillId: z.string().min(1), version: z.string().min(1) };

/** Request/reply subjects of the control service for vaults, memory stores, deployments, files and skills. */
export const ControlStoreSubjects = {
  createVault: rpcSubject(
    'control.vault.create',
    z.object({ ...Scoped, body: CreateVaultRequestSchema }),
    VaultSchema,
  ),
  getVault: rpcSubject('control.vault.get', z.object(ById), VaultSchema),
  updateVault: rpcSubject(
    'control.vault.update',
    z.object({ ...ById, body: UpdateVaultRequestSchema }),
    VaultSchema,
  ),
  listVaults: rpcSubject(
    'control.vault.list',
    z.object({ ...Scoped, query: ListParamsSchema }),
    pageOf(VaultSchema),
  ),
  archiveVault: rpcSubject('control.vault.archive', z.object(ById), VaultSchema),
  deleteVault: rpcSubject('control.vault.delete', z.object(ById), VaultDeletedSchema),

  createCredential: rpcSubject(
    'control.vault_credential.create',
    z.object({ ...InVault, body: CreateCredentialRequestSchema }),
    CredentialSchema,
  ),
  getCredential: rpcSubject(
    'control.vault_credential.get',
    z.object({ ...InVault, id: z.string().min(1) }),
    CredentialSchema,
  ),
  updateCredential: rpcSubject(
    'control.vault_credential.update',
    z.object({ ...InVault, id: z.string().min(1), body: UpdateCredentialRequestSchema }),
    CredentialSchema,
  ),
  listCredentials: rpcSubject(
    'control.vault_credential.list',
    z.object({ ...InVault, query: ListParamsSchema }),
    pageOf(CredentialSchema),
  ),
  archiveCredential: rpcSubject(
    'control.vault_credential.archive',
    z.object({ ...InVault, id: z.string().min(1) }),
    CredentialSchema,
  ),
  deleteCredential: rpcSubject(
    'control.vault_credential.delete',
    z.object({ ...InVault, id: z.string().min(1) }),
    CredentialDeletedSchema,
  ),

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
    pageOf(MemoryStoreSchema),
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
    pageOf(MemoryListItemSchema),
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
    pageOf(MemoryVersionSchema),
  ),
  redactMemoryVersion: rpcSubject(
    'control.memory_version.redact',
    z.object({ ...InStore, id: z.string().min(1) }),
    MemoryVersionSchema,
  ),

  createDeployment: rpcSubject(
    'control.deployment.create',
    z.object({ ...Scoped, body: CreateDeploymentRequestSchema }),
    DeploymentSchema,
  ),
  getDeployment: rpcSubject('control.deployment.get', z.object(ById), DeploymentSchema),
  updateDeployment: rpcSubject(
    'control.deployment.update',
    z.object({ ...ById, body: UpdateDeploymentRequestSchema }),
    DeploymentSchema,
  ),
  listDeployments: rpcSubject(
    'control.deployment.list',
    z.object({ ...Scoped, query: ListDeploymentsParamsSchema }),
    pageOf(DeploymentSchema),
  ),
  pauseDeployment: rpcSubject('control.deployment.pause', z.object(ById), DeploymentSchema),
  unpauseDeployment: rpcSubject('control.deployment.unpause', z.object(ById), DeploymentSchema),
  archiveDeployment: rpcSubject('control.deployment.archive', z.object(ById), DeploymentSchema),

  getDeploymentRun: rpcSubject('control.deployment_run.get', z.object(ById), DeploymentRunSchema),
  listDeploymentRuns: rpcSubject(
    'control.deployment_run.list',
    z.object({ ...Scoped, query: ListDeploymentRunsParamsSchema }),
    pageOf(DeploymentRunSchema),
  ),

  uploadFile: rpcSubject(
    'control.file.upload',
    z.object({ ...Scoped, body: UploadFileRpcBodySchema }),
    FileMetadataSchema,
  ),
  getFile: rpcSubject('control.file.get', z.object(ById), FileMetadataSchema),
  listFiles: rpcSubject(
    'control.file.list',
    z.object({ ...Scoped, query: ListFilesParamsSchema }),
    pageOf(FileMetadataSchema),
  ),
  downloadFile: rpcSubject('control.file.download', z.object(ById), FileContentSchema),
  deleteFile: rpcSubject('control.file.delete', z.object(ById), FileDeletedSchema),

  createSkill: rpcSubject(
    'control.skill.create',
    z.object({
      ...Scoped,
      body: SkillUploadSchema.extend({ display_name: z.string().min(1).max(255).nullable().optional() }),
    }),
    SkillSchema,
  ),
  getSkill: rpcSubject('control.skill.get', z.object(ById), SkillSchema),
  listSkills: rpcSubject(
    'control.skill.list',
    z.object({ ...Scoped, query: ListSkillsParamsSchema }),
    pageOf(SkillSchema),
  ),
  deleteSkill: rpcSubject('control.skill.delete', z.object(ById), SkillDeletedSchema),
  createSkillVersion: rpcSubject(
    'control.skill_version.create',
    z.object({ ...Scoped, skillId: z.string().min(1), body: SkillUploadSchema }),
    SkillVersionSchema,
  ),
  getSkillVersion: rpcSubject(
    'control.skill_version.get',
    z.object({ ...Scoped, ...SkillVersionRef }),
    SkillVersionSchema,
  ),
  listSkillVersions: rpcSubject(
    'control.skill_version.list',
    z.object({ ...Scoped, skillId: z.string().min(1), query: ListParamsSchema }),
    pageOf(SkillVersionSchema),
  ),
} as const;
