import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { AgentToolContext } from '@anthropic-ai/sdk/tools/agent-toolset/node';
import { createLogger, SystemClock } from '@agentry/platform';
import type { WorkerEnv } from '../config/env.js';
import { sandboxRunnableTools } from './sandbox-runnable-tools.js';
import { SandboxCaps } from '../sandbox/sandbox-caps.js';
import { SessionSandboxLease } from './session-sandbox-lease.js';

interface SelfHostedTarget {
  gatewayUrl: string;
  environmentId: string;
  environmentKey: string;
}

/** The gateway, environment and key self-hosted mode needs; a missing one is named, never guessed. */
function selfHostedTarget(config: WorkerEnv): SelfHostedTarget {
  const missing = (
    ['AGENTRY_GATEWAY_URL', 'AGENTRY_ENVIRONMENT_ID', 'AGENTRY_ENVIRONMENT_KEY'] as const
  ).filter((k) => !config[k]);
  if (missing.length > 0)
    throw new Error(
      `Self-hosted mode needs ${missing.join(', ')} (or --gateway-url, --environment-id, --environment-key)`,
    );
  return {
    gatewayUrl: config.AGENTRY_GATEWAY_URL!,
    environmentId: config.AGENTRY_ENVIRONMENT_ID!,
    environmentKey: config.AGENTRY_ENVIRONMENT_KEY!,
  };
}

/**
 * The worker of a `self_hosted` environment, run on the customer's machine: the official SDK's
 * environment worker (poll, lease heartbeat, results, stop) with the tools in this machine's bubblewrap
 * sandbox, or the SDK's own toolset in a plain directory. Needs only outbound HTTP(S) to the gateway.
 */
export async function runSelfHostedWorker(config: WorkerEnv, signal: AbortSignal): Promise<void> {
  const target = selfHostedTarget(config);
  const logger = createLogger('worker', config.AGENTRY_LOG_LEVEL);
  // Runs outside Nest, so it makes the clock the platform would otherwise provide.
  const clock = new SystemClock();
  const root = config.AGENTRY_WORKDIR_ROOT;
  const sandboxed = config.AGENTRY_SELF_HOSTED_SANDBOX === 'bubblewrap';
  // On the customer's machine the worker's cgroup is theirs (a login session, a service): sessions get cgroups
  // only where one is named, and no workspace image.
  const caps = new SandboxCaps(
    {
      ...config,
      AGENTRY_SANDBOX_CGROUP:
        config.AGENTRY_SANDBOX_CGROUP === 'auto' ? 'none' : config.AGENTRY_SANDBOX_CGROUP,
      AGENTRY_SANDBOX_DISK_BYTES: 0,
    },
    logger,
  );
  // Sandboxed, the SDK lays the session's skills out in the directory the sandbox mounts at /workspace.
  const workdir = sandboxed ? join(root, 'workspace') : root;
  await mkdir(workdir, { recursive: true });
  const client = new Anthropic({
    baseURL: target.gatewayUrl,
    apiKey: null,
    authToken: target.environmentKey,
    logLevel: 'warn',
  });
  const timeouts = {
    defaultMs: config.AGENTRY_SANDBOX_DEFAULT_TIMEOUT_MS,
    callMs: config.AGENTRY_SANDBOX_DEFAULT_TIMEOUT_MS,
  };
  const tools = sandboxed
    ? (ctx: AgentToolContext) =>
        sandboxRunnableTools(
          new SessionSandboxLease(ctx.session?.id ?? 'session', root, config, clock, caps),
          ctx.session?.id ?? '',
          timeouts,
        )
    : undefined;
  const workerId = config.AGENTRY_WORKER_ID ?? `agentry-worker-${hostname()}-${process.pid}`;
  logger.info(
    { environmentId: target.environmentId, workerId, sandbox: config.AGENTRY_SELF_HOSTED_SANDBOX, workdir },
    'self-hosted worker polling',
  );
  await client.beta.environments.work
    .worker({
      environmentId: target.environmentId,
      environmentKey: target.environmentKey,
      workdir,
      workerId,
      memorySyncIntervalMs: null,
      ...(tools ? { tools } : {}),
    })
    .run(signal)
    .catch((err: unknown) => {
      if (!signal.aborted) throw err;
    });
  logger.info({ workerId }, 'self-hosted worker stopped');
}
