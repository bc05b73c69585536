import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ToolInputIssue } from './tool-input.js';

const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
/** Compiled once per schema object: a tool keeps its schema for the life of its connection. */
const compiled = new WeakMap<object, ValidateFunction | null>();

/**
 * What is wrong with `input` under a tool's JSON Schema (an MCP server's or a custom tool's), each issue
 * naming its field. A schema that cannot be compiled checks nothing here: the tool's own server still
 * validates, and a model must not be locked out of a tool by a schema quirk.
 */
export function jsonSchemaIssues(schema: Record<string, unknown>, input: unknown): ToolInputIssue[] {
  const validate = validatorOf(schema);
  if (!validate || validate(input)) return [];
  return (validate.errors ?? []).map(toIssue);
}

function validatorOf(schema: Record<string, unknown>): ValidateFunction | null {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    // The dialect key is left out: ajv's default draft-07 vocabulary covers what tool schemas use.
    const { $schema: _dialect, ...body } = schema;
    try {
      validate = ajv.compile(body);
    } catch {
      validate = null;
    }
    compiled.set(schema, validate);
  }
  return validate;
}

function toIssue(error: ErrorObject): ToolInputIssue {
  const at = error.instancePath.split('/').slice(1).map(unescapePointer);
  const missing = (error.params as { missingProperty?: unknown }).missingProperty;
  if (error.keyword === 'required' && typeof missing === 'string')
    return { path: [...at, missing].join('.'), message: 'required' };
  const extra = (error.params as { additionalProperty?: unknown }).additionalProperty;
  if (error.keyword === 'additionalProperties' && typeof extra === 'string')
    return { path: [...at, extra].join('.'), message: 'not an argument of this tool' };
  return { path: at.length > 0 ? at.join('.') : '(input)', message: error.message ?? 'invalid' };
}

function unescapePointer(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}
