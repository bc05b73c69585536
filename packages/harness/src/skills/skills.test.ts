import type { MemoryWorkspaceFs } from '@agentry/workspace';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { seededWorkspace } from '../context/memory-workspace.fixture.js';
import type { ToolContext } from '../tools/tool.js';
import { renderAvailableSkills } from './available-skills.renderer.js';
import { createLoadSkillTool } from './load-skill.tool.js';
import { loadSkills } from './skill-loader.js';

const skillMd = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

function context(fs: MemoryWorkspaceFs): ToolContext {
  return {
    toolCallId: 't1',
    fs,
    signal: new AbortController().signal,
    sessionId: 's',
    agentId: 'a',
    values: {},
  };
}

describe('skills', () => {
  let globalFs: MemoryWorkspaceFs;
  let workspaceFs: MemoryWorkspaceFs;
  beforeAll(async () => {
    globalFs = await seededWorkspace({
      'skills/reviewer/SKILL.md': skillMd('reviewer', 'Global reviewer', 'GLOBAL BODY'),
      'skills/translator/SKILL.md': skillMd('translator', 'Translate text', 'Translate carefully.'),
    });
    workspaceFs = await seededWorkspace({
      'skills/reviewer/SKILL.md': skillMd('reviewer', 'Workspace reviewer', 'WORKSPACE BODY'),
      'skills/reviewer/references/style.md': 'Use two spaces.',
      'skills/broken/SKILL.md': '---\nname: [unclosed\n---\nbody',
      'skills/nameless/SKILL.md': '---\ndescription: no name\n---\nbody',
      'u1/skills/reviewer/SKILL.md': skillMd('reviewer', 'User reviewer', 'USER BODY'),
    });
  });

  it('layers sources so that a higher layer overrides a skill with the same name', async () => {
    const sources = [
      { layer: 'user' as const, fs: workspaceFs, root: 'u1/skills' },
      { layer: 'global' as const, fs: globalFs, root: 'skills' },
      { layer: 'workspace' as const, fs: workspaceFs, root: 'skills' },
    ];
    const skills = await loadSkills(sources);
    expect(skills.map((s) => [s.name, s.layer, s.description])).toEqual([
      ['reviewer', 'user', 'User reviewer'],
      ['translator', 'global', 'Translate text'],
    ]);
    const withoutUser = await loadSkills(sources.slice(1));
    expect(withoutUser.find((s) => s.name === 'reviewer')?.body).toBe('WORKSPACE BODY');
  });

  it('skips a SKILL.md with invalid front matter with a warning instead of failing', async () => {
    const warn = vi.fn();
    const skills = await loadSkills([{ layer: 'workspace', fs: workspaceFs, root: 'skills' }], {
      logger: { warn },
    });
    expect(skills.map((s) => s.name)).toEqual(['reviewer']);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls.map((call) => (call[1] as { path: string }).path).sort()).toEqual([
      'skills/broken/SKILL.md',
      'skills/nameless/SKILL.md',
    ]);
  });

  it('renders <available_skills> with name, description and path only', async () => {
    const skills = await loadSkills([{ layer: 'workspace', fs: workspaceFs, root: 'skills' }]);
    const block = renderAvailableSkills(skills);
    expect(block).toContain('<available_skills>');
    expect(block).toContain(
      '<name>reviewer</name>\n<description>Workspace reviewer</description>\n<path>skills/reviewer/SKILL.md</path>',
    );
    expect(block).not.toContain('WORKSPACE BODY');
    expect(renderAvailableSkills([])).toBe('');
  });

  it('load_skill_through_path returns the body with its resource list, and resource files', async () => {
    const skills = await loadSkills([{ layer: 'workspace', fs: workspaceFs, root: 'skills' }]);
    const tool = createLoadSkillTool(skills);
    expect(tool.idempotent).toBe(true);
    expect((tool.inputSchema.properties as { skillId: { enum: string[] } }).skillId.enum).toEqual([
      'reviewer',
    ]);
    const main = await tool.execute({ skillId: 'reviewer', path: 'SKILL.md' }, context(workspaceFs));
    expect(main.status).toBe('ok');
    const mainText = main.status === 'ok' && main.content[0]?.type === 'text' ? main.content[0].text : '';
    expect(mainText).toContain('WORKSPACE BODY');
    expect(mainText).toContain('- references/style.md');
    const resource = await tool.execute(
      { skillId: 'reviewer', path: 'references/style.md' },
      context(workspaceFs),
    );
    expect(resource).toEqual({ status: 'ok', content: [{ type: 'text', text: 'Use two spaces.' }] });
    expect(
      (
        await tool.execute(
          { skillId: 'reviewer', path: '../../u1/skills/reviewer/SKILL.md' },
          context(workspaceFs),
        )
      ).status,
    ).toBe('error');
    expect((await tool.execute({ skillId: 'nope', path: 'SKILL.md' }, context(workspaceFs))).status).toBe(
      'error',
    );
  });
});
