import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DynamicModule, Type } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppError, toErrorEnvelope } from '@agentry/contracts';
import type { BaseEnv } from '../config/base-env.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { NestPinoLogger } from '../logging/nest-logger.js';
import { parseQueryString } from '../http/query-string.parser.js';
import { NatsConnections } from '../nats/nats-connections.js';
import { PrefixedServerNats } from '../nats/prefixed-server-nats.js';
import { recordHttpMetrics } from '../metrics/http-metrics.js';
import { trackQuietConnections } from '../http/quiet-connections.js';

export interface BootstrapOptions {
  service: string;
  module: Type<unknown> | DynamicModule;
  config: BaseEnv;
  /** Serve NATS request/reply handlers (queue group = service name, so replicas share the load). */
  rpc: boolean;
  bodyLimitBytes?: number;
  configure?: (app: NestFastifyApplication) => void | Promise<void>;
}

/**
 * Starts a service: Fastify for HTTP (the public API on the gateway, health everywhere) and, where the
 * service answers requests, the NATS transport under the installation's subject prefix.
 */
export async function bootstrapService(options: BootstrapOptions): Promise<NestFastifyApplication> {
  const { config, service } = options;
  const logger = createLogger(service, config.AGENTRY_LOG_LEVEL);
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimitBytes ?? 1_048_576,
    trustProxy: true,
    routerOptions: { querystringParser: parseQueryString },
    // The router rejects some URLs (over-long or undecodable parameters) before any Nest code runs;
    // they still leave as the typed error envelope.
    frameworkErrors: (error: Error, _request: unknown, reply: FastifyReply) => {
      void reply
        .code(400)
        .send(toErrorEnvelope(new AppError('INVALID_REQUEST', `Bad URL: ${error.message}`), null));
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(options.module, adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  app.enableShutdownHooks();
  const fastify = app.getHttpAdapter().getInstance();
  recordHttpMetrics(fastify);
  // On SIGTERM the server stops once its responses in flight are out, not when clients drop their connections.
  const connections = trackQuietConnections(fastify.server);
  fastify.addHook('preClose', (done) => {
    connections.closeQuiet();
    done();
  });
  await options.configure?.(app);
  if (options.rpc) {
    app.connectMicroservice(
      {
        strategy: new PrefixedServerNats(
          {
            servers: config.NATS_URL.split(','),
            queue: service,
            name: `${service}-server`,
            replicaId: replicaIdOf(service),
          },
          config.AGENTRY_SUBJECT_PREFIX,
          logger,
          app.get(NatsConnections, { strict: false }),
        ),
      },
      { inheritAppConfig: true },
    );
    await app.startAllMicroservices();
  }
  await listenOrExit(app, config, logger);
  logger.info({ url: await app.getUrl(), port: config.PORT }, 'service listening');
  return app;
}

/**
 * The exit code of a service whose port is taken: a supervisor (or the test launcher) can tell it from a crash
 * and start it again on another port. 98 is Linux's EADDRINUSE.
 */
const EXIT_PORT_IN_USE = 98;

/**
 * A service that cannot take its port ends at once, with a code that says why: left running, it would hold
 * its NATS subscriptions and take work while no probe or client could reach it.
 */
async function listenOrExit(app: NestFastifyApplication, config: BaseEnv, logger: Logger): Promise<void> {
  try {
    await app.listen(config.PORT, config.AGENTRY_HOST);
  } catch (error) {
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    logger.fatal({ err: error, port: config.PORT }, inUse ? 'port already in use' : 'could not listen');
    process.exit(inUse ? EXIT_PORT_IN_USE : 1);
  }
}

/** This process among its service's replicas: unique per start, usable as one NATS subject token. */
function replicaIdOf(service: string): string {
  const host = hostname().replace(/[^A-Za-z0-9_-]/g, '-');
  return `${service}-${host}-${process.pid}-${randomBytes(3).toString('hex')}`;
}
