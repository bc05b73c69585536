import { z } from 'zod';

/** The tenant of a login, by slug or id. */
export const LoginTenantSchema = z.string().min(1, 'tenant must not be empty').max(128);

/**
 * `POST /api/auth/login`. Usernames match case-insensitively (the service lower-cases them) and are unique
 * per tenant: `tenant` (slug or id) names the tenant when the name is used in several.
 */
export const ApiLoginRequestSchema = z.strictObject({
  username: z.string().min(1, 'username is required').max(128),
  password: z.string().min(1, 'password is required').max(1024),
  tenant: LoginTenantSchema.optional(),
});
export type ApiLoginRequest = z.infer<typeof ApiLoginRequestSchema>;

export const ApiUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  roles: z.array(z.string()),
  tenantId: z.string().optional(),
});
export type ApiUser = z.infer<typeof ApiUserSchema>;

/** `{token, user}`; the flat `userId/username/roles` copies keep older AgentScope clients working. */
export const ApiLoginResponseSchema = z.object({
  token: z.string(),
  user: ApiUserSchema,
  userId: z.string(),
  username: z.string(),
  roles: z.array(z.string()),
});
export type ApiLoginResponse = z.infer<typeof ApiLoginResponseSchema>;

export function toApiLoginResponse(token: string, user: ApiUser): ApiLoginResponse {
  return { token, user, userId: user.id, username: user.username, roles: user.roles };
}
