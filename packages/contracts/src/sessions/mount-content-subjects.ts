import { z } from 'zod';
import { rpcSubject, V1 } from '../nats/subject.js';

const Tenant = { v: V1, tenantId: z.string().min(1) };

/** One stored skill version: SKILL.md, its front matter and its other files (base64). */
const MountedSkillVersionSchema = z.object({
  version: z.number().int().positive(),
  content: z.string(),
  front_matter: z.record(z.string(), z.unknown()).nullable(),
  files: z.record(z.string(), z.object({ content: z.string() })).nullable(),
});
export type MountedSkillVersion = z.infer<typeof MountedSkillVersionSchema>;

/**
 * Internal (dataplane and worker → control): the content of what a session mounts, read from the tables
 * control owns. Not reachable from any public route; every read is scoped to the tenant.
 */
export const MountContentSubjects = {
  /** One uploaded file's bytes (an upload fits one message: AGENTRY_FILE_MAX_BYTES); null once deleted. */
  file: rpcSubject(
    'control.mount_content.file',
    z.object({ ...Tenant, fileId: z.string().min(1) }),
    z.object({ content_base64: z.string().nullable() }),
  ),
  /** A memory store's live memories by path, a page at a time (a page too large for the bus is cut). */
  memories: rpcSubject(
    'control.mount_content.memories',
    z.object({
      ...Tenant,
      storeId: z.string().min(1),
      afterPath: z.string().optional(),
      limit: z.number().int().min(1).max(1000).default(200),
    }),
    z.object({
      data: z.array(z.object({ path: z.string(), content: z.string() })),
      hasMore: z.boolean(),
    }),
  ),
  /** A skill version by number or `latest` (the skill's head now); null when there is none. */
  skillVersion: rpcSubject(
    'control.mount_content.skill_version',
    z.object({ ...Tenant, skillId: z.string().min(1), version: z.string().min(1) }),
    z.object({ skill: MountedSkillVersionSchema.nullable() }),
  ),
} as const;
