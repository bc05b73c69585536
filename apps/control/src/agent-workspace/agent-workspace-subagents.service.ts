import { Injectable } from '@nestjs/common';
import { AppError, type Actor } from '@agentry/contracts';
import type {
  ApiWorkspaceDeleted,
  ApiWorkspaceSubagent,
  ApiWorkspaceSubagentList,
  ApiWorkspaceSubagentPut,
} from '@agentry/contracts/api';
import { AgentWorkspaceAccess } from './agent-workspace.access.js';
import { parseSubagent, renderSubagent } from './subagent-markdown.js';
import { assertTotalFits, itemName } from './workspace-limits.js';

const subagentPath = (name: string) => `subagents/${itemName(name, 'sub-agent name')}.md`;

/** Sub-agent declarations (`subagents/<name>.md`) the agent may spawn with `agent_spawn`. */
@Injectable()
export class AgentWorkspaceSubagentsService {
  constructor(private readonly access: AgentWorkspaceAccess) {}

  async list(actor: Actor, agentId: string): Promise<ApiWorkspaceSubagentList> {
    const fs = await this.access.forRead(actor, agentId);
    if (!(await fs.exists('subagents'))) return { data: [] };
    const data: ApiWorkspaceSubagent[] = [];
    for (const entry of await fs.list('subagents', { glob: '*.md' })) {
      if (entry.kind !== 'file') continue;
      const name = entry.path.slice('subagents/'.length, -'.md'.length);
      data.push(parseSubagent(name, entry.path, await fs.readText(entry.path)));
    }
    return { data: data.sort((a, b) => a.name.localeCompare(b.name)) };
  }

  async put(
    actor: Actor,
    agentId: string,
    name: string,
    body: ApiWorkspaceSubagentPut,
  ): Promise<ApiWorkspaceSubagent> {
    const workspace = await this.access.forWrite(actor, agentId);
    const path = subagentPath(name);
    const markdown = renderSubagent(body);
    await assertTotalFits(workspace.fs, new Map([[path, Buffer.byteLength(markdown, 'utf8')]]));
    await workspace.apply({ op: 'write', path, content: markdown });
    await this.access.recordWrite(actor, agentId, 'workspace.subagent.put', { subagent: name, path });
    return parseSubagent(name, path, markdown);
  }

  async delete(actor: Actor, agentId: string, name: string): Promise<ApiWorkspaceDeleted> {
    const workspace = await this.access.forWrite(actor, agentId);
    const path = subagentPath(name);
    if (!(await workspace.fs.exists(path)))
      throw new AppError('NOT_FOUND', `Sub-agent ${name} not found in the agent workspace`);
    await workspace.apply({ op: 'delete', path, recursive: false });
    await this.access.recordWrite(actor, agentId, 'workspace.subagent.delete', { subagent: name });
    return { path, deleted: true };
  }
}
