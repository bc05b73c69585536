import { z } from 'zod';
import { IsoDateTimeSchema, ListParamsSchema } from '../common/common.js';

/** Skills are uploaded as multipart form data (a folder with SKILL.md); these are the non-file fields and results. */

const SkillSourceTypeSchema = z.enum(['custom', 'anthropic', 'anthropic_example', 'plugin']);
export type SkillSourceType = z.infer<typeof SkillSourceTypeSchema>;

export const CreateSkillFormSchema = z.object({
  display_name: z.string().min(1).max(255).nullable().optional(),
});

export const SkillSchema = z.object({
  type: z.literal('skill'),
  id: z.string(),
  /** Single-line label; taken from the SKILL.md frontmatter `name` when not given. */
  display_name: z.string(),
  latest_version_id: z.string(),
  source: z.object({ type: SkillSourceTypeSchema }),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
});
export type Skill = z.infer<typeof SkillSchema>;

export const SkillVersionSchema = z.object({
  type: z.literal('skill_version'),
  id: z.string(),
  skill_id: z.string(),
  name: z.string(),
  description: z.string(),
  created_at: IsoDateTimeSchema,
});
export type SkillVersion = z.infer<typeof SkillVersionSchema>;

export const SkillDeletedSchema = z.object({ id: z.string(), type: z.literal('skill_deleted') });

export const ListSkillsParamsSchema = ListParamsSchema.extend({ source: SkillSourceTypeSchema.nullish() });
export type ListSkillsParams = z.infer<typeof ListSkillsParamsSchema>;

/** The frontmatter a SKILL.md must start with. */
export const SkillFrontmatterSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9-]+$/, 'name may contain only lowercase letters, digits and hyphens'),
  description: z.string().min(1).max(1024),
});
export type SkillFrontmatter = z.infer<typeof SkillFrontmatterSchema>;
