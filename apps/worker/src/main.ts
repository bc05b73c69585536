import { bootstrapService, startTelemetry } from '@agentry/platform';
import { AppModule } from './app.module.js';
import { loadWorkerEnv } from './config/env.js';

startTelemetry('agentry-worker');
const config = loadWorkerEnv();
await bootstrapService({ service: 'worker', module: AppModule.forRoot(config), config, rpc: true });
