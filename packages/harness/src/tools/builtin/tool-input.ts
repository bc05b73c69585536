import { AppError } from '@agentry/contracts';

/** Reads a string argument; a missing required one is an INVALID_REQUEST the model can correct. */
export function stringArg(input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== 'string' || value === '')
    throw new AppError('INVALID_REQUEST', `Missing required string argument "${name}"`);
  return value;
}

export function optionalString(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function optionalNumber(input: Record<string, unknown>, name: string): number | undefined {
  const value = input[name];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

export function objectSchema(
  properties: Record<string, unknown>,
  required: string[],
): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false };
}
