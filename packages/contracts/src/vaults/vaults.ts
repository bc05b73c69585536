import { z } from 'zod';
import { IsoDateTimeSchema, MetadataPatchSchema, MetadataSchema } from '../common/common.js';

const DisplayNameSchema = z
  .string()
  .min(1, 'display_name must not be empty')
  .max(255, 'display_name may be at most 255 characters');

export const CreateVaultRequestSchema = z.strictObject({
  display_name: DisplayNameSchema,
  metadata: MetadataSchema.optional(),
});
export type CreateVaultRequest = z.infer<typeof CreateVaultRequestSchema>;

export const UpdateVaultRequestSchema = z.strictObject({
  display_name: DisplayNameSchema.nullable().optional(),
  metadata: MetadataPatchSchema.nullable().optional(),
});
export type UpdateVaultRequest = z.infer<typeof UpdateVaultRequestSchema>;

export const VaultSchema = z.object({
  type: z.literal('vault'),
  id: z.string(),
  display_name: z.string(),
  metadata: MetadataSchema,
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  archived_at: IsoDateTimeSchema.nullable(),
});
export type Vault = z.infer<typeof VaultSchema>;

export const VaultDeletedSchema = z.object({ id: z.string(), type: z.literal('vault_deleted') });
export type VaultDeleted = z.infer<typeof VaultDeletedSchema>;
