import {
  Global,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  Inject,
  type Provider,
  type InjectionToken,
} from '@nestjs/common';
import type { Redis } from 'ioredis';
import { createPrismaClient, type PrismaClient } from '@agentry/db';
import type { BaseEnv } from './config/base-env.js';
import { createLogger, type Logger } from './logging/logger.js';
import { NatsBus } from './nats/nats-bus.js';
import { NatsConnections } from './nats/nats-connections.js';
import { PrefixedClientNats } from './nats/prefixed-client-nats.js';
import { RpcClient } from './nats/rpc-client.js';
import { RpcEnvelopeInterceptor } from './nats/rpc-envelope.interceptor.js';
import { JobQueue } from './queue/job-queue.js';
import { createRedis, redisKeyPrefix } from './redis/redis-factory.js';
import { HealthController, HEALTH_INDICATORS } from './health/health.controller.js';
import { MetricsController } from './metrics/metrics.controller.js';
import type { HealthIndicator } from './health/health-check.js';
import { servicesHeardFrom } from './health/services-heard.indicator.js';
import { SystemClock, type Clock } from './clock/clock.js';
import { APP_CONFIG, CLOCK, DATABASE, LOGGER, REDIS } from './tokens.js';

export interface PlatformOptions {
  service: string;
  config: BaseEnv;
  /** Which shared resources this service uses; readiness checks exactly these. */
  uses: { database?: boolean; redis?: boolean; queue?: boolean };
  /** Services this one routes requests to: readiness waits until a replica of each has been heard from. */
  routesTo?: readonly string[];
  /** The time every service reads; tests running a service in-process pass a manual one. */
  clock?: Clock;
}

/** Shared resources of a service: config, logger, clock, NATS (RPC + bus), Redis, BullMQ, Postgres, health. */
@Global()
@Module({})
export class PlatformModule implements OnApplicationShutdown {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(NatsBus) private readonly bus: NatsBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  static forRoot(options: PlatformOptions): DynamicModule {
    const { config, service } = options;
    const logger = createLogger(service, config.AGENTRY_LOG_LEVEL);
    const providers: Provider[] = [
      { provide: APP_CONFIG, useValue: config },
      { provide: LOGGER, useValue: logger },
      { provide: CLOCK, useValue: options.clock ?? new SystemClock() },
      RpcEnvelopeInterceptor,
      { provide: NatsConnections, useValue: new NatsConnections() },
      {
        provide: RpcClient,
        inject: [NatsConnections],
        useFactory: async (connections: NatsConnections) => {
          const proxy = new PrefixedClientNats(
            { servers: config.NATS_URL.split(','), name: `${service}-rpc` },
            config.AGENTRY_SUBJECT_PREFIX,
            connections,
          );
          await proxy.connect();
          return new RpcClient(proxy, config.AGENTRY_RPC_TIMEOUT_MS, logger);
        },
      },
      {
        provide: NatsBus,
        inject: [NatsConnections],
        useFactory: (connections: NatsConnections) =>
          NatsBus.connect(config.NATS_URL, config.AGENTRY_SUBJECT_PREFIX, `${service}-bus`, connections),
      },
    ];
    const exportsList: InjectionToken[] = [
      APP_CONFIG,
      LOGGER,
      CLOCK,
      RpcClient,
      NatsBus,
      NatsConnections,
      RpcEnvelopeInterceptor,
    ];
    const indicatorDeps: InjectionToken[] = [NatsConnections];
    if (options.uses.database) {
      providers.push({ provide: DATABASE, useFactory: () => createPrismaClient(config.DATABASE_URL) });
      exportsList.push(DATABASE);
      indicatorDeps.push(DATABASE);
    }
    if (options.uses.redis) {
      providers.push({
        provide: REDIS,
        useFactory: () => createRedis(config.REDIS_URL, { keyPrefix: redisKeyPrefix(config.AGENTRY_ENV) }),
      });
      exportsList.push(REDIS);
      indicatorDeps.push(REDIS);
    }
    if (options.uses.queue) {
      providers.push({
        provide: JobQueue,
        useFactory: () => new JobQueue(config.REDIS_URL, `agentry:${config.AGENTRY_ENV}:bull`, logger),
      });
      exportsList.push(JobQueue);
    }
    const routesTo = options.routesTo ?? [];
    providers.push({
      provide: HEALTH_INDICATORS,
      inject: [RpcClient, ...indicatorDeps],
      useFactory: (rpc: RpcClient, ...deps: unknown[]): HealthIndicator[] => [
        ...indicatorDeps.map((token, index) => healthIndicatorFor(token, deps[index])),
        ...(routesTo.length ? [servicesHeardFrom(rpc, routesTo)] : []),
      ],
    });
    return {
      module: PlatformModule,
      providers,
      exports: exportsList,
      controllers: [HealthController, MetricsController],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.rpc.close(), this.bus.close()]);
    this.logger.info('shut down');
  }
}

function healthIndicatorFor(token: unknown, dependency: unknown): HealthIndicator {
  if (token === DATABASE) {
    const prisma = dependency as PrismaClient;
    return { name: 'postgres', check: async () => void (await prisma.$queryRawUnsafe('SELECT 1')) };
  }
  if (token === REDIS) {
    const redis = dependency as Redis;
    return { name: 'redis', check: async () => void (await redis.ping()) };
  }
  const connections = dependency as NatsConnections;
  return {
    name: 'nats',
    check: () => {
      const down = connections.down();
      return down.length ? Promise.reject(new Error(`not connected: ${down.join(', ')}`)) : Promise.resolve();
    },
  };
}
