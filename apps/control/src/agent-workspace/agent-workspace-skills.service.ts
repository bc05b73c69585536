import { Injectable } from '@nestjs/common';
import { AppError, type Actor } from '@agentry/contracts';
import {
  AGENT_WORKSPACE_MAX_SKILL_RESOURCES,
  type ApiWorkspaceDeleted,
  type ApiWorkspaceSkill,
  type ApiWorkspaceSkillList,
  type ApiWorkspaceSkillPut,
} from '@agentry/contracts/api';
import type { WorkspaceFs } from '@agentry/workspace';
import { AgentWorkspaceAccess } from './agent-workspace.access.js';
import { readFrontMatter, skillFrontMatter, textField } from './front-matter.js';
import { assertTotalFits, filePath, itemName } from './workspace-limits.js';

const skillDir = (name: string) => `skills/${itemName(name, 'skill name')}`;

/** Workspace skills: `skills/<name>/SKILL.md` plus resources, the layer the harness loads for every turn. */
@Injectable()
export class AgentWorkspaceSkillsService {
  constructor(private readonly access: AgentWorkspaceAccess) {}

  async list(actor: Actor, agentId: string): Promise<ApiWorkspaceSkillList> {
    const fs = await this.access.forRead(actor, agentId);
    if (!(await fs.exists('skills'))) return { data: [] };
    const data = [];
    for (const entry of await fs.list('skills', { recursive: true, glob: '*/SKILL.md' })) {
      const { data: fields } = readFrontMatter(await fs.readText(entry.path));
      const name = entry.path.split('/')[1]!;
      data.push({ name, description: textField(fields, 'description') ?? '', path: entry.path });
    }
    return { data: data.sort((a, b) => a.name.localeCompare(b.name)) };
  }

  async get(actor: Actor, agentId: string, name: string): Promise<ApiWorkspaceSkill> {
    return this.describe(await this.access.forRead(actor, agentId), name);
  }

  /** Replaces the whole skill folder: resources left out of the body are removed. */
  async put(
    actor: Actor,
    agentId: string,
    name: string,
    body: ApiWorkspaceSkillPut,
  ): Promise<ApiWorkspaceSkill> {
    const workspace = await this.access.forWrite(actor, agentId);
    const dir = skillDir(name);
    skillFrontMatter(body.markdown, name);
    const files = new Map<string, string>([[`${dir}/SKILL.md`, body.markdown]]);
    const resources = Object.entries(body.resources ?? {});
    if (resources.length > AGENT_WORKSPACE_MAX_SKILL_RESOURCES) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `resources: at most ${AGENT_WORKSPACE_MAX_SKILL_RESOURCES} files per skill`,
      );
    }
    for (const [relPath, content] of resources) {
      const rel = filePath(relPath, `resources["${relPath}"]`);
      if (rel === 'SKILL.md')
        throw new AppError('INVALID_REQUEST', 'resources: SKILL.md is given by "markdown"');
      files.set(`${dir}/${rel}`, content);
    }
    const sizes = new Map([...files].map(([path, content]) => [path, Buffer.byteLength(content, 'utf8')]));
    await assertTotalFits(workspace.fs, sizes, `${dir}/`);
    const replaced = (await workspace.fs.exists(dir))
      ? [{ op: 'delete', path: dir, recursive: true } as const]
      : [];
    const writes = [...files].map(([path, content]) => ({ op: 'write', path, content }) as const);
    await workspace.apply(...replaced, ...writes);
    await this.access.recordWrite(actor, agentId, 'workspace.skill.put', {
      skill: name,
      files: [...files.keys()],
    });
    return this.describe(workspace.fs, name);
  }

  async delete(actor: Actor, agentId: string, name: string): Promise<ApiWorkspaceDeleted> {
    const workspace = await this.access.forWrite(actor, agentId);
    if (!(await workspace.fs.exists(`${skillDir(name)}/SKILL.md`)))
      throw new AppError('NOT_FOUND', `Skill ${name} not found in the agent workspace`);
    await workspace.apply({ op: 'delete', path: skillDir(name), recursive: true });
    await this.access.recordWrite(actor, agentId, 'workspace.skill.delete', { skill: name });
    return { path: skillDir(name), deleted: true };
  }

  private async describe(fs: WorkspaceFs, name: string): Promise<ApiWorkspaceSkill> {
    const path = `${skillDir(name)}/SKILL.md`;
    if (!(await fs.exists(path)))
      throw new AppError('NOT_FOUND', `Skill ${name} not found in the agent workspace`);
    const markdown = await fs.readText(path);
    const prefix = `${skillDir(name)}/`;
    const resources = (await fs.list(skillDir(name), { recursive: true }))
      .filter((entry) => entry.kind === 'file' && entry.path !== path)
      .map((entry) => entry.path.slice(prefix.length));
    return {
      name,
      path,
      description: textField(readFrontMatter(markdown).data, 'description') ?? '',
      markdown,
      resources,
    };
  }
}
