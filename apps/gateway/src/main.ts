import { bootstrapService } from '@agentry/platform';
import { AppModule } from './app.module.js';
import { loadGatewayEnv } from './config/env.js';
import { configureHttp } from './http/configure-http.js';
import { registerStaticFiles } from './static/static-files.js';

const config = loadGatewayEnv();
await bootstrapService({
  service: 'gateway',
  module: AppModule.forRoot(config),
  config,
  rpc: false,
  bodyLimitBytes: config.AGENTRY_BODY_LIMIT_BYTES,
  configure: async (app) => {
    configureHttp(app, config.AGENTRY_BODY_LIMIT_BYTES);
    await registerStaticFiles(app, config.AGENTRY_CONSOLE_DIR);
  },
});
