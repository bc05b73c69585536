import { z } from 'zod';
import { rpcSubject } from '../nats/subject.js';
import { ById, Scoped } from '../nats/request-fields.js';
import { ListParamsSchema } from '../common/common.js';
import { pageSchema } from '../common/paging.js';
import { ListSkillsParamsSchema, SkillDeletedSchema, SkillSchema, SkillVersionSchema } from './skills.js';

/** An uploaded skill folder: each file's path inside the upload and its bytes. */
export const SkillUploadSchema = z.object({
  files: z.array(z.object({ path: z.string().min(1).max(1024), content_base64: z.string() })).max(200),
});
const SkillVersionRef = { skillId: z.string().min(1), version: z.string().min(1) };

/** Request/reply subjects of the control service for skills and their versions. */
export const SkillSubjects = {
  createSkill: rpcSubject(
    'control.skill.create',
    z.object({
      ...Scoped,
      body: SkillUploadSchema.extend({ display_name: z.string().min(1).max(255).nullable().optional() }),
    }),
    SkillSchema,
  ),
  getSkill: rpcSubject('control.skill.get', z.object(ById), SkillSchema),
  listSkills: rpcSubject(
    'control.skill.list',
    z.object({ ...Scoped, query: ListSkillsParamsSchema }),
    pageSchema(SkillSchema),
  ),
  deleteSkill: rpcSubject('control.skill.delete', z.object(ById), SkillDeletedSchema),
  createSkillVersion: rpcSubject(
    'control.skill_version.create',
    z.object({ ...Scoped, skillId: z.string().min(1), body: SkillUploadSchema }),
    SkillVersionSchema,
  ),
  getSkillVersion: rpcSubject(
    'control.skill_version.get',
    z.object({ ...Scoped, ...SkillVersionRef }),
    SkillVersionSchema,
  ),
  listSkillVersions: rpcSubject(
    'control.skill_version.list',
    z.object({ ...Scoped, skillId: z.string().min(1), query: ListParamsSchema }),
    pageSchema(SkillVersionSchema),
  ),
} as const;
