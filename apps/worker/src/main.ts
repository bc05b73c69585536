import { bootstrapService } from '@agentry/platform';
import { AppModule } from './app.module.js';
import { loadWorkerEnv } from './config/env.js';
import { envFromFlags } from './self-hosted/cli-flags.js';
import { runSelfHostedWorker } from './self-hosted/self-hosted-worker.js';

const config = loadWorkerEnv({ ...process.env, ...envFromFlags(process.argv.slice(2)) });
if (config.AGENTRY_WORKER_MODE === 'self_hosted') {
  // No Postgres, NATS or Redis: only the gateway's `/v1` work queue.
  const stop = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => stop.abort(new Error(signal)));
  await runSelfHostedWorker(config, stop.signal);
} else {
  await bootstrapService({ service: 'worker', module: AppModule.forRoot(config), config, rpc: true });
}
