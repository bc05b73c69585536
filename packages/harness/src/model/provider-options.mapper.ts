/** Request options an OpenAI-compatible server understands; DashScope and vLLM extensions included. */
export const OPENAI_OPTION_KEYS = [
  'reasoning_effort',
  'top_p',
  'stop',
  'seed',
  'user',
  'response_format',
  'tool_choice',
  'parallel_tool_calls',
  'presence_penalty',
  'frequency_penalty',
  'enable_thinking',
  'thinking_budget',
  'top_k',
] as const;

/** Request options of the Anthropic Messages API. */
export const ANTHROPIC_OPTION_KEYS = [
  'thinking',
  'top_p',
  'top_k',
  'stop_sequences',
  'tool_choice',
  'metadata',
  'service_tier',
] as const;

/**
 * Picks the provider options out of `ModelRequest.options`. The harness also uses that bag for its own
 * bookkeeping (e.g. `attempt`), so only known provider keys pass, plus anything under `extraBody` verbatim.
 */
export function pickProviderOptions(
  options: Record<string, unknown> | undefined,
  keys: readonly string[],
): Record<string, unknown> {
  if (!options) return {};
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (options[key] !== undefined) picked[key] = options[key];
  const extra = options.extraBody;
  if (extra && typeof extra === 'object' && !Array.isArray(extra)) Object.assign(picked, extra);
  return picked;
}
