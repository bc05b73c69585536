import type { ApiWorkspaceSubagent, ApiWorkspaceSubagentPut } from '@agentry/contracts/api';
import { readFrontMatter, textField } from './front-matter.js';

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
  const { data, body } = readFrontMatter(markdown);
  const model = textField(data, 'model');
  const maxIters = data.maxIters;
  const tools =
    Array.isArray(data.tools) && data.tools.every((t) => typeof t === 'string') ? data.tools : undefined;
  return {
    name,
    path,
    description: textField(data, 'description') ?? '',
    ...(model ? { model } : {}),
    ...(typeof maxIters === 'number' && Number.isInteger(maxIters) && maxIters > 0 ? { maxIters } : {}),
    ...(tools ? { tools } : {}),
    inlineBody: body.trim(),
  };
}
