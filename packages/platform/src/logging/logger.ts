import { pino, type DestinationStream, type Logger as PinoLogger, type LoggerOptions } from 'pino';
import { trace } from '@opentelemetry/api';
import { currentContext } from './request-context.js';

/** Fields that must never reach a log line, wherever they appear. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'headers["x-builder-environment-key"]',
  'req.headers["x-builder-environment-key"]',
  '*.value',
  'credentials',
  '*.credentials',
];

export type Logger = PinoLogger;

/** `destination` defaults to stdout. */
export function createLogger(service: string, level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    name: service,
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin() {
      const span = trace.getActiveSpan();
      const traceId = span?.spanContext().traceId;
      return { ...currentContext(), ...(traceId ? { traceId } : {}) };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
