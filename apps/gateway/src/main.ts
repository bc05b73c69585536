import { bootstrapService } from '@agentry/platform';
import { AppModule } from './app.module.js';
import { loadGatewayEnv } from './config/env.js';
import { configureHttp } from './http/configure-http.js';

const config = loadGatewayEnv();
await bootstrapService({
  service: 'gateway',
  module: AppModule.forRoot(config),
  config,
  rpc: false,
  bodyLimitBytes: config.AGENTRY_BODY_LIMIT_BYTES,
  configure: (app) => configureHttp(app, config.AGENTRY_BODY_LIMIT_BYTES),
});
