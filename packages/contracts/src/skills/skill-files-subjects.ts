import { z } from 'zod';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';

/** One file of a skill version besides SKILL.md, as stored. */
const SkillFileSchema = z.object({ encoding: z.literal('base64'), content: z.string() });
export type SkillFile = z.infer<typeof SkillFileSchema>;

/** A skill version with everything a worker needs to lay it out on disk. */
const SkillVersionFilesSchema = z.object({
  skill_id: z.string(),
  version_id: z.string(),
  version: z.number().int().positive(),
  name: z.string(),
  description: z.string(),
  /** SKILL.md, front matter included. */
  skill_md: z.string(),
  /** Every other file, by its path inside the skill folder. */
  files: z.record(z.string(), SkillFileSchema),
});
export type SkillVersionFiles = z.infer<typeof SkillVersionFilesSchema>;

/** Control serves skill contents to the gateway, which hands them to self-hosted workers. */
export const SkillFileSubjects = {
  /** `version` is a version id, a version number, or `latest`. */
  getVersionFiles: rpcSubject(
    'control.skill_version.files',
    z.object({ v: V1, actor: ActorSchema, skillId: z.string().min(1), version: z.string().min(1) }),
    SkillVersionFilesSchema,
  ),
} as const;
