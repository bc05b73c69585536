import { z } from 'zod';
import { Scoped } from '../nats/request-fields.js';
import { entitySubjects } from '../nats/entity-subjects.js';
import { ListParamsSchema } from '../common/common.js';
import { ListSkillsParamsSchema, SkillDeletedSchema, SkillSchema, SkillVersionSchema } from './skills.js';

/** An uploaded skill folder: each file's path inside the upload and its bytes. */
const SkillUploadSchema = z.object({
  files: z.array(z.object({ path: z.string().min(1).max(1024), content_base64: z.string() })).max(200),
});
const skill = entitySubjects('control.skill', SkillSchema);
const version = entitySubjects('control.skill_version', SkillVersionSchema, {
  ...Scoped,
  skillId: z.string().min(1),
});

/** Request/reply subjects of the control service for skills and their versions. */
export const SkillSubjects = {
  createSkill: skill.create(
    SkillUploadSchema.extend({ display_name: z.string().min(1).max(255).nullable().optional() }),
  ),
  getSkill: skill.get(),
  listSkills: skill.list(ListSkillsParamsSchema),
  deleteSkill: skill.onItem('delete', SkillDeletedSchema),
  createSkillVersion: version.create(SkillUploadSchema),
  getSkillVersion: version.onScope('get', SkillVersionSchema, { version: z.string().min(1) }),
  listSkillVersions: version.list(ListParamsSchema),
} as const;
