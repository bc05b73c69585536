import { z } from 'zod';
import { rpcSubject } from '../nats/subject.js';
import { ById, Scoped } from '../nats/request-fields.js';
import { ListParamsSchema } from '../common/common.js';
import { pageSchema } from '../common/paging.js';
import {
  CreateVaultRequestSchema,
  UpdateVaultRequestSchema,
  VaultDeletedSchema,
  VaultSchema,
} from './vaults.js';
import {
  CreateCredentialRequestSchema,
  CredentialDeletedSchema,
  CredentialSchema,
  UpdateCredentialRequestSchema,
} from './vault-credentials.js';

const InVault = { ...Scoped, vaultId: z.string().min(1) };

/** Request/reply subjects of the control service for vaults and their credentials. */
export const VaultSubjects = {
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
    pageSchema(VaultSchema),
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
    pageSchema(CredentialSchema),
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
} as const;
