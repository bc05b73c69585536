import { bootstrapService } from '@agentry/platform';
import { AppModule } from './app.module.js';
import { loadWorkerEnv } from './config/env.js';

const config = loadWorkerEnv();
await bootstrapService({ service: 'worker', module: AppModule.forRoot(config), config, rpc: true });
