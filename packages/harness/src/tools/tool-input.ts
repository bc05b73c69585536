import { AppError } from '@agentry/contracts';
import { z } from 'zod';
import type { HarnessTool } from './tool.js';
import { jsonSchemaIssues } from './json-schema-issues.js';

/** One wrong argument: where it is (`view_range.0`, or `(input)` for the whole object) and what is wrong. */
export interface ToolInputIssue {
  path: string;
  message: string;
}

/**
 * The JSON Schema the model is shown for a tool's zod input: the input side (what may be sent), without
 * the `$schema` key and without the safe-integer bounds zod adds to every integer (model APIs and the
 * official toolset declare plain `integer`).
 */
function toolInputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    override: ({ jsonSchema }) => {
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** `inputSchema` and `input` of a tool, both from one zod schema. */
export function zodInput<S extends z.ZodType>(schema: S): { input: S; inputSchema: Record<string, unknown> } {
  return { input: schema, inputSchema: toolInputSchema(schema) };
}

/**
 * What is wrong with the model's arguments to `tool`: checked against its zod input where it has one,
 * otherwise against its JSON Schema (an MCP server's, a custom tool's). Empty when they are fine.
 */
export function toolInputIssues(tool: HarnessTool, input: unknown): ToolInputIssue[] {
  if (tool.input) {
    const parsed = tool.input.safeParse(input);
    return parsed.success ? [] : zodIssues(parsed.error);
  }
  return jsonSchemaIssues(tool.inputSchema, input);
}

/** The message a model reads for wrong arguments: the tool, then each field and what is wrong with it. */
export function describeInputIssues(toolName: string, issues: ToolInputIssue[]): string {
  const fields = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return `${toolName}: invalid arguments: ${fields}`;
}

/**
 * The arguments of a tool with a zod input, typed; wrong ones are an INVALID_REQUEST naming each field
 * (a tool error the model can correct).
 */
export function parseToolInput<S extends z.ZodType>(
  toolName: string,
  schema: S,
  input: unknown,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new AppError('INVALID_REQUEST', describeInputIssues(toolName, zodIssues(parsed.error)));
}

function zodIssues(error: z.ZodError): ToolInputIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)',
    message: issue.message.replace(/^Invalid input: /, ''),
  }));
}

/** A plain JSON Schema object for tools written without zod. */
export function objectSchema(
  properties: Record<string, unknown>,
  required: string[],
): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * A tool input's field as text, '' when it is left out: a model may send a number where text is asked,
 * or an object, which is read as its JSON.
 */
export function inputText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? '';
}
