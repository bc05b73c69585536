import { bootstrapService } from '@agentry/platform';
import { AppModule } from './app.module.js';
import { loadControlEnv } from './config/env.js';

const config = loadControlEnv();
await bootstrapService({ service: 'control', module: AppModule.forRoot(config), config, rpc: true });
