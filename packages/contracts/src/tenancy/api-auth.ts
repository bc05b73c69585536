import { z } from 'zod';

/** The tenant of a login, by slug or id. */
export const LoginTenantSchema = z.string().min(1, 'tenant must not be empty').max(128);
