import type { ApiWorkspaceSubagent, ApiWorkspaceSubagentPut } from '@agentry/contracts';
import { readFrontMatter } from './front-matter.js';

/**
 * `subagents/<name>.md` in the shape the harness parses: YAML front matter (description, model,
 * maxIters, tools) and the system prompt as the body. Values are written as JSON, which YAML reads as is.
 */
export function renderSubagent(body: ApiWorkspaceSubagentPut): string {
  const lines = [`description: ${JSON.stringify(body.description.trim())}`];
  if (body.model !== undefined) lines.push(`model: ${JSON.stringify(body.model)}`);
  if (body.maxIters !== undefined) lines.push(`maxIters: ${body.maxIters}`);
  if (body.tools !== undefined) lines.push(`tools: ${JSON.stringify(body.tools)}`);
  return `---\n${lines.join('\n')}\n---\n\n${body.inlineBody.trim()}\n`;
}

/** Reads a declaration back, best effort for files written by hand; fields it cannot read are left out. */
export function parseSubagent(name: string, path: string, markdown: string): ApiWorkspaceSubagent {
  const parsed = readFrontMatter(markdown);
  const fields = parsed?.fields ?? {};
  const maxIters = Number(fields.maxIters);
  const tools = jsonStringList(fields.tools);
  return {
    name,
    path,
    description: fields.description ?? '',
    ...(fields.model ? { model: fields.model } : {}),
    ...(Number.isInteger(maxIters) && maxIters > 0 ? { maxIters } : {}),
    ...(tools ? { tools } : {}),
    inlineBody: (parsed?.body ?? markdown).trim(),
  };
}

function jsonStringList(value: string | undefined): string[] | undefined {
  if (!value?.startsWith('[')) return undefined;
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) && list.every((t) => typeof t === 'string') ? list : undefined;
  } catch {
    return undefined;
  }
}
