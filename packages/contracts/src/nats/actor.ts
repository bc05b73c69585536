import { z } from 'zod';

export const RoleSchema = z.enum(['admin', 'member', 'viewer']);
export type Role = z.infer<typeof RoleSchema>;

/**
 * Who is asking, as resolved by the gateway. Every request between services carries it, and every
 * repository call takes its tenant and namespace: another namespace's resource is simply not found.
 */
export const ActorSchema = z.object({
  tenantId: z.string().min(1),
  namespaceId: z.string().min(1),
  userId: z.string().nullable(),
  apiKeyId: z.string().nullable().default(null),
  role: RoleSchema,
});
export type Actor = z.infer<typeof ActorSchema>;
