import { z } from 'zod';
import { Scoped } from '../nats/request-fields.js';
import { entitySubjects } from '../nats/entity-subjects.js';
import { ListParamsSchema } from '../common/common.js';
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

const vault = entitySubjects('control.vault', VaultSchema);
const credential = entitySubjects('control.vault_credential', CredentialSchema, {
  ...Scoped,
  vaultId: z.string().min(1),
});

/** Request/reply subjects of the control service for vaults and their credentials. */
export const VaultSubjects = {
  createVault: vault.create(CreateVaultRequestSchema),
  getVault: vault.get(),
  updateVault: vault.update(UpdateVaultRequestSchema),
  listVaults: vault.list(ListParamsSchema),
  archiveVault: vault.onItem('archive'),
  deleteVault: vault.onItem('delete', VaultDeletedSchema),
  createCredential: credential.create(CreateCredentialRequestSchema),
  getCredential: credential.get(),
  updateCredential: credential.update(UpdateCredentialRequestSchema),
  listCredentials: credential.list(ListParamsSchema),
  archiveCredential: credential.onItem('archive'),
  deleteCredential: credential.onItem('delete', CredentialDeletedSchema),
} as const;
