import { Injectable } from '@nestjs/common';
import { AppError, type Actor } from '@agentry/contracts';
import type {
  ApiWorkspaceDeleted,
  ApiWorkspaceEntry,
  ApiWorkspaceEntryList,
  ApiWorkspaceFile,
  ApiWorkspaceSummary,
} from '@agentry/contracts/api';
import { AgentWorkspaceAccess } from './agent-workspace.access.js';
import { allFiles, assertTotalFits, filePath } from './workspace-limits.js';
import { epochStat } from '@agentry/workspace';

const SKILL_MD = /^skills\/([^/]+)\/SKILL\.md$/;
const SUBAGENT_MD = /^subagents\/([^/]+)\.md$/;

/** Plain file access to an agent's workspace: list, read, write, move and delete by path. */
@Injectable()
export class AgentWorkspaceFilesService {
  constructor(private readonly access: AgentWorkspaceAccess) {}

  async summary(actor: Actor, agentId: string): Promise<ApiWorkspaceSummary> {
    const files = await allFiles(await this.access.forRead(actor, agentId));
    const names = (pattern: RegExp) => files.flatMap((f) => pattern.exec(f.path)?.[1] ?? []).sort();
    return {
      agentId,
      fileCount: files.length,
      totalBytes: files.reduce((sum, f) => sum + f.size, 0),
      hasAgentsMd: files.some((f) => f.path === 'AGENTS.md'),
      hasToolsJson: files.some((f) => f.path === 'tools.json'),
      skills: names(SKILL_MD),
      subagents: names(SUBAGENT_MD),
    };
  }

  async list(actor: Actor, agentId: string): Promise<ApiWorkspaceEntryList> {
    const fs = await this.access.forRead(actor, agentId);
    return { data: (await fs.list('', { recursive: true })).map(epochStat) };
  }

  /** Without a path, the agent's AGENTS.md. */
  async read(actor: Actor, agentId: string, rawPath: string | undefined): Promise<ApiWorkspaceFile> {
    const fs = await this.access.forRead(actor, agentId);
    const path = filePath(rawPath ?? 'AGENTS.md');
    const content = await fs.readText(path);
    const stat = (await fs.stat(path))!;
    return { ...epochStat(stat), version: stat.version, content };
  }

  async write(actor: Actor, agentId: string, rawPath: string, content: string): Promise<ApiWorkspaceEntry> {
    const workspace = await this.access.forWrite(actor, agentId);
    const path = filePath(rawPath);
    await assertTotalFits(workspace.fs, new Map([[path, Buffer.byteLength(content, 'utf8')]]));
    const [written] = await workspace.apply({ op: 'write', path, content });
    await this.access.recordWrite(actor, agentId, 'workspace.write', { path, size: written!.size });
    return written!;
  }

  async delete(actor: Actor, agentId: string, rawPath: string | undefined): Promise<ApiWorkspaceDeleted> {
    const workspace = await this.access.forWrite(actor, agentId);
    if (rawPath === undefined)
      throw new AppError('INVALID_REQUEST', 'path: the file or folder to delete is required');
    const path = filePath(rawPath);
    await workspace.apply({ op: 'delete', path, recursive: true });
    await this.access.recordWrite(actor, agentId, 'workspace.delete', { path });
    return { path, deleted: true };
  }

  async move(actor: Actor, agentId: string, rawFrom: string, rawTo: string): Promise<ApiWorkspaceEntry> {
    const workspace = await this.access.forWrite(actor, agentId);
    const from = filePath(rawFrom, 'from');
    const to = filePath(rawTo, 'to');
    const [moved] = await workspace.apply({ op: 'move', from, to });
    await this.access.recordWrite(actor, agentId, 'workspace.move', { from, to });
    return moved!;
  }
}
