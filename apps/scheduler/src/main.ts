import { bootstrapService } from '@agentry/platform';
import { AppModule } from './app.module.js';
import { loadSchedulerEnv } from './config/env.js';

const config = loadSchedulerEnv();
await bootstrapService({ service: 'scheduler', module: AppModule.forRoot(config), config, rpc: true });
