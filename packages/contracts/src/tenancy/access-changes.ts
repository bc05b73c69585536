import { z } from 'zod';
import { V1 } from '../nats/subject.js';

/**
 * Published by control after every change that can revoke or narrow what a credential may do (API key
 * revoked, user disabled or re-roled, password changed, namespace membership changed, tenant changed).
 * It names whose access changed; a receiver drops every cached actor that matches all fields given.
 * At-most-once like all pub/sub: receivers keep their caches short-lived as the safety net.
 */
export const AccessChangedSchema = z
  .object({
    v: V1,
    tenantId: z.string().min(1).optional(),
    namespaceId: z.string().min(1).optional(),
    userId: z.string().min(1).optional(),
    apiKeyId: z.string().min(1).optional(),
  })
  .refine((change) => Boolean(change.tenantId ?? change.namespaceId ?? change.userId ?? change.apiKeyId), {
    message: 'name at least one of tenantId, namespaceId, userId, apiKeyId',
  });
export type AccessChanged = z.input<typeof AccessChangedSchema>;
/** Carried on `PubSubjects.accessChanged`. */
export type ParsedAccessChanged = z.output<typeof AccessChangedSchema>;
