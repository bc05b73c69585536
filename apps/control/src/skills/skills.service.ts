import { Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type ListParams,
  type ListSkillsParams,
  type Page,
  type Skill,
  type SkillVersion,
  type SkillVersionFiles,
} from '@agentry/contracts';
import type { Skill as SkillRow, SkillVersion as VersionRow } from '@agentry/db';
import { assertCanWrite } from '../common/access.js';
import { decodeIdCursor, encodeCursor } from '@agentry/contracts/v1';
import { resumableById, toIdPage } from '../common/page-cursor.js';
import { readSkillBundle } from './skill-bundle.js';
import { toSkillDto, toSkillFilesDto, toSkillVersionDto } from './skill.mapper.js';
import { SkillsRepository } from './skills.repository.js';

type Upload = { files: { path: string; content_base64: string }[] };

@Injectable()
export class SkillsService {
  constructor(private readonly skills: SkillsRepository) {}

  async create(actor: Actor, body: Upload & { display_name?: string | null }): Promise<Skill> {
    assertCanWrite(actor);
    const bundle = readSkillBundle(body.files);
    const row = await this.skills.create(
      actor,
      newId(ID_PREFIXES.skill),
      newId(ID_PREFIXES.skillVersion),
      body.display_name ?? bundle.frontMatter.name,
      bundle,
    );
    return toSkillDto(row.skill, row.latest);
  }

  async get(actor: Actor, id: string): Promise<Skill> {
    const skill = await this.require(actor, id);
    const [latest] = await this.skills.latestVersions([skill]);
    if (!latest) throw new AppError('NOT_FOUND', `Skill ${id} has no versions`);
    return toSkillDto(skill, latest);
  }

  async list(actor: Actor, query: ListSkillsParams): Promise<Page<Skill>> {
    const rows = await this.skills.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      source: query.source ?? undefined,
    });
    const page = rows.slice(0, query.limit);
    const latest = new Map((await this.skills.latestVersions(page)).map((v) => [v.skillId, v]));
    const last = page.at(-1);
    return resumableById({
      data: page.flatMap((s) => {
        const version = latest.get(s.id);
        return version ? [toSkillDto(s, version)] : [];
      }),
      next_page: rows.length > query.limit && last ? encodeCursor(last.id) : null,
    });
  }

  async delete(actor: Actor, id: string): Promise<{ id: string; type: 'skill_deleted' }> {
    assertCanWrite(actor);
    await this.require(actor, id);
    await this.skills.delete(actor, id);
    return { id, type: 'skill_deleted' };
  }

  /** A new version must keep the skill's name: agents refer to the skill, not to one upload. */
  async createVersion(actor: Actor, skillId: string, body: Upload): Promise<SkillVersion> {
    assertCanWrite(actor);
    const skill = await this.require(actor, skillId);
    const bundle = readSkillBundle(body.files);
    const [latest] = await this.skills.latestVersions([skill]);
    const currentName = latest ? toSkillVersionDto(latest).name : bundle.frontMatter.name;
    if (bundle.frontMatter.name !== currentName) {
      throw new AppError(
        'INVALID_REQUEST',
        `SKILL.md front matter name: must stay "${currentName}" for skill ${skillId}`,
      );
    }
    try {
      return toSkillVersionDto(
        await this.skills.addVersion(actor, skill, newId(ID_PREFIXES.skillVersion), bundle),
      );
    } catch (err) {
      if ((err as { code?: string }).code === 'P2025') {
        throw new AppError('VERSION_CONFLICT', `Skill ${skillId} got another version concurrently; retry`, {
          cause: err,
        });
      }
      throw err;
    }
  }

  async getVersion(actor: Actor, skillId: string, ref: string): Promise<SkillVersion> {
    return toSkillVersionDto(await this.requireVersion(actor, skillId, ref));
  }

  /** SKILL.md and the other files of a version, for self-hosted workers. */
  async getVersionFiles(actor: Actor, skillId: string, ref: string): Promise<SkillVersionFiles> {
    return toSkillFilesDto(await this.requireVersion(actor, skillId, ref));
  }

  async listVersions(actor: Actor, skillId: string, query: ListParams): Promise<Page<SkillVersion>> {
    await this.require(actor, skillId);
    const rows = await this.skills.listVersions(skillId, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
    });
    return toIdPage(rows, query.limit, toSkillVersionDto);
  }

  /** `ref` is a version id, a version number, or `latest` (the alias agents pin by default). */
  private async requireVersion(actor: Actor, skillId: string, ref: string): Promise<VersionRow> {
    const skill = await this.require(actor, skillId);
    const row = await this.skills.findVersion(skillId, ref === 'latest' ? String(skill.latestVersion) : ref);
    if (!row) throw new AppError('NOT_FOUND', `Skill ${skillId} has no version ${ref}`);
    return row;
  }

  private async require(actor: Actor, id: string): Promise<SkillRow> {
    const row = await this.skills.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Skill ${id} not found`);
    return row;
  }
}
