import { AppError } from '@agentry/contracts';

/**
 * The JSON object a model streamed as a tool call's `field` (Anthropic: `input`, OpenAI: `arguments`);
 * empty means `{}`, anything else that is not an object is the provider's fault.
 */
export function parseToolCallJson(
  modelId: string,
  call: { id: string; name: string },
  field: 'input' | 'arguments',
  json: string,
): Record<string, unknown> {
  if (json.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through to the typed error below
  }
  throw new AppError('MODEL_REQUEST_FAILED', `${modelId}: tool call ${call.name} has invalid JSON ${field}`, {
    details: { model: modelId, toolCallId: call.id, [field]: json.slice(0, 2000) },
  });
}
