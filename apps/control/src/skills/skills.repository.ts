import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Skill, SkillVersion, ServiceDatabase } from '@agentry/db';
import type { Actor } from '@agentry/contracts';
import type { SkillBundle } from './skill-bundle.js';

/** Largest value of a Postgres `integer` column, such as a version number. */
const INT4_MAX = 2_147_483_647;

export type SkillWithLatest = { skill: Skill; latest: SkillVersion };

@Injectable()
export class SkillsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  create(
    actor: Actor,
    id: string,
    versionId: string,
    displayName: string,
    bundle: SkillBundle,
  ): Promise<SkillWithLatest> {
    return this.db.$transaction(async (tx) => {
      const skill = await tx.skill.create({
        data: {
          id,
          tenantId: actor.tenantId,
          namespaceId: actor.namespaceId,
          name: displayName,
          description: bundle.frontMatter.description,
          latestVersion: 1,
        },
      });
      const latest = await tx.skillVersion.create({
        data: versionData(actor, skill.id, versionId, 1, bundle),
      });
      return { skill, latest };
    });
  }

  /** Appends a version; the head moves only if nobody else moved it first. */
  addVersion(actor: Actor, skill: Skill, versionId: string, bundle: SkillBundle): Promise<SkillVersion> {
    return this.db.$transaction(async (tx) => {
      const next = skill.latestVersion + 1;
      await tx.skill.update({
        where: { id: skill.id, latestVersion: skill.latestVersion },
        data: { latestVersion: next },
      });
      return tx.skillVersion.create({ data: versionData(actor, skill.id, versionId, next, bundle) });
    });
  }

  find(actor: Actor, id: string): Promise<Skill | null> {
    return this.db.skill.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId, archivedAt: null },
    });
  }

  list(
    actor: Actor,
    options: { limit: number; afterId?: string; order: 'asc' | 'desc'; source?: string },
  ): Promise<Skill[]> {
    return this.db.skill.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        archivedAt: null,
        ...(options.source ? { source: options.source } : {}),
        ...(options.afterId
          ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }
          : {}),
      },
      orderBy: { id: options.order },
      take: options.limit,
    });
  }

  /** A version by its id or its number; a number past what the column holds names no version. */
  findVersion(skillId: string, ref: string): Promise<SkillVersion | null> {
    const number = /^\d+$/.test(ref) ? Number(ref) : undefined;
    if (number !== undefined && number > INT4_MAX) return Promise.resolve(null);
    return this.db.skillVersion.findFirst({
      where: { skillId, ...(number !== undefined ? { version: number } : { id: ref }) },
    });
  }

  latestVersions(skills: Skill[]): Promise<SkillVersion[]> {
    if (skills.length === 0) return Promise.resolve([]);
    return this.db.skillVersion.findMany({
      where: { OR: skills.map((s) => ({ skillId: s.id, version: s.latestVersion })) },
    });
  }

  listVersions(
    skillId: string,
    options: { limit: number; afterId?: string; order: 'asc' | 'desc' },
  ): Promise<SkillVersion[]> {
    return this.db.skillVersion.findMany({
      where: {
        skillId,
        ...(options.afterId
          ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }
          : {}),
      },
      orderBy: { id: options.order },
      take: options.limit,
    });
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.db.skill.delete({ where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId } });
  }
}

function versionData(actor: Actor, skillId: string, id: string, version: number, bundle: SkillBundle) {
  return {
    id,
    tenantId: actor.tenantId,
    skillId,
    version,
    content: bundle.content,
    frontMatter: bundle.frontMatter,
    files: bundle.files,
  };
}
