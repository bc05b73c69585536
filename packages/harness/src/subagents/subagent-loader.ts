import { listFilePaths, readOptionalText } from '../context/workspace-read.js';
import { parseFrontMatter } from '@agentry/workspace';
import type { WarnLogger } from '../skills/skill.types.js';
import type { WorkspaceFs } from '@agentry/workspace';
import {
  DEFAULT_SUBAGENT_MAX_ITERS,
  type SubagentSpec,
  type SubagentWorkspaceMode,
} from './subagent-spec.js';

function parseWorkspace(value: unknown): { mode: SubagentWorkspaceMode; path?: string } | string {
  if (value === undefined || value === null) return { mode: 'isolated' };
  const raw = typeof value === 'string' ? { mode: value } : value;
  if (typeof raw !== 'object') return '"workspace" must be a mode or {mode, path}';
  const { mode = 'isolated', path } = raw as { mode?: unknown; path?: unknown };
  if (mode !== 'isolated' && mode !== 'shared') return '"workspace.mode" must be isolated or shared';
  if (path !== undefined && typeof path !== 'string') return '"workspace.path" must be a string';
  return path === undefined ? { mode } : { mode, path: path.replace(/\/+$/, '') };
}

/** `model:` as a model id, or as a config object with an `id` and the model's settings. */
function parseModel(value: unknown): Pick<SubagentSpec, 'model' | 'modelSettings'> | string {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') return { model: value };
  const { id, ...settings } = (typeof value === 'object' && !Array.isArray(value) ? value : {}) as Record<
    string,
    unknown
  >;
  if (typeof id !== 'string' || id.trim() === '') return '"model" must be a model id or {id, ...settings}';
  return Object.keys(settings).length > 0 ? { model: id, modelSettings: settings } : { model: id };
}

async function loadOne(fs: WorkspaceFs, path: string): Promise<SubagentSpec | string> {
  const id = path.slice(path.lastIndexOf('/') + 1, -'.md'.length);
  const { data, body } = parseFrontMatter((await readOptionalText(fs, path)) ?? '');
  if (typeof data.description !== 'string' || data.description.trim() === '')
    return 'front matter needs a "description"';
  const workspace = parseWorkspace(data.workspace);
  if (typeof workspace === 'string') return workspace;
  const model = parseModel(data.model);
  if (typeof model === 'string') return model;
  const tools = data.tools;
  if (tools !== undefined && !(Array.isArray(tools) && tools.every((t) => typeof t === 'string')))
    return '"tools" must be a list of tool names';
  const maxIters = data.maxIters ?? DEFAULT_SUBAGENT_MAX_ITERS;
  if (typeof maxIters !== 'number' || !Number.isInteger(maxIters) || maxIters < 1)
    return '"maxIters" must be a positive integer';
  let systemPrompt = body.trim();
  if (workspace.path !== undefined) {
    // With a workspace path the prompt lives in that folder's AGENTS.md, never in two places.
    if (systemPrompt !== '') return 'a sub-agent with "workspace.path" must have an empty body';
    systemPrompt = (await readOptionalText(fs, `${workspace.path}/AGENTS.md`))?.trim() ?? '';
  }
  return {
    id,
    description: data.description.trim(),
    systemPrompt,
    workspaceMode: workspace.mode,
    ...model,
    ...(tools !== undefined ? { tools } : {}),
    maxIters,
    source: 'file',
  };
}

/**
 * Reads `subagents/<id>.md` declarations (direct children only). An invalid declaration is skipped
 * with a warning so one bad file never stops the agent.
 */
export async function loadSubagentSpecs(
  fs: WorkspaceFs,
  options: { dir?: string; logger?: WarnLogger } = {},
): Promise<SubagentSpec[]> {
  const dir = (options.dir ?? 'subagents').replace(/\/+$/, '');
  const paths = (await listFilePaths(fs, dir, false)).filter(
    (path) => path.endsWith('.md') && !path.slice(dir.length + 1).includes('/'),
  );
  const specs: SubagentSpec[] = [];
  for (const path of paths) {
    let result: SubagentSpec | string;
    try {
      result = await loadOne(fs, path);
    } catch (error) {
      result = (error as Error).message;
    }
    if (typeof result === 'string')
      options.logger?.warn('sub-agent declaration skipped', { path, reason: result });
    else specs.push(result);
  }
  return specs;
}
