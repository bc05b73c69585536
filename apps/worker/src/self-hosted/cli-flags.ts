import { parseArgs } from 'node:util';

/** Command-line flags of self-hosted mode, as the environment variables they stand for (flags win). */
const FLAGS = {
  'self-hosted': { type: 'boolean' },
  'gateway-url': { type: 'string' },
  'environment-id': { type: 'string' },
  'environment-key': { type: 'string' },
  workdir: { type: 'string' },
  sandbox: { type: 'string' },
  'worker-id': { type: 'string' },
} as const;

export function envFromFlags(argv: string[]): Record<string, string> {
  const { values } = parseArgs({ args: argv, options: FLAGS, strict: true });
  const env: Record<string, string> = {};
  if (values['self-hosted']) env.AGENTRY_WORKER_MODE = 'self_hosted';
  if (values['gateway-url']) env.AGENTRY_GATEWAY_URL = values['gateway-url'];
  if (values['environment-id']) env.AGENTRY_ENVIRONMENT_ID = values['environment-id'];
  if (values['environment-key']) env.AGENTRY_ENVIRONMENT_KEY = values['environment-key'];
  if (values.workdir) env.AGENTRY_WORKDIR_ROOT = values.workdir;
  if (values.sandbox) env.AGENTRY_SELF_HOSTED_SANDBOX = values.sandbox;
  if (values['worker-id']) env.AGENTRY_WORKER_ID = values['worker-id'];
  return env;
}
