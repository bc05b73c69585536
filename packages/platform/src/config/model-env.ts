import { z } from 'zod';

/**
 * Model provider settings, read by every service that decides about models: control (which models an
 * agent may name), the gateway (the `/api` default model) and the dataplane (which calls them).
 */
export const ModelEnvSchema = z.object({
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  DASHSCOPE_API_KEY: z.string().optional(),
  /** The model an `/api` agent gets when its body names none; unset, it follows the configured keys. */
  AGENTRY_DEFAULT_MODEL: z.string().trim().min(1).optional(),
});
export type ModelEnv = z.infer<typeof ModelEnvSchema>;

/**
 * The installation's default model: the configured one, else a model of the first provider with a key,
 * else `scripted`, so an installation without any key still runs its walkthrough end to end.
 */
export function defaultModelId(env: ModelEnv): string {
  if (env.AGENTRY_DEFAULT_MODEL) return env.AGENTRY_DEFAULT_MODEL;
  if (env.ANTHROPIC_API_KEY) return 'claude-sonnet-4-5';
  if (env.OPENAI_API_KEY) return 'openai/gpt-4.1';
  if (env.DASHSCOPE_API_KEY) return 'dashscope/qwen-plus';
  return 'scripted';
}
