import { bootstrapService } from '@agentry/platform';
import { AppModule } from './app.module.js';
import { loadDataplaneEnv } from './config/env.js';

const config = loadDataplaneEnv();
await bootstrapService({ service: 'dataplane', module: AppModule.forRoot(config), config, rpc: true });
