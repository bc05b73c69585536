export { ChaosSchedule } from './chaos/chaos-schedule.js';
export { FakeAnthropicServer } from './fakes/fake-anthropic.server.js';
export type { FakeAnthropicReply, FakeAnthropicUsage } from './fakes/fake-anthropic.server.js';
export type { RecordedRequest } from './fakes/fake-http.listener.js';
export { FakeE2bServer } from './fakes/fake-e2b.server.js';
export { FakeOpenAiServer } from './fakes/fake-openai.server.js';
export { GitHttpServer } from './fakes/git-http.server.js';
export type {
  FakeOpenAiReply,
  FakeOpenAiResponder,
  FakeOpenAiToolCall,
  FakeOpenAiUsage,
} from './fakes/fake-openai.server.js';
export { launchPlatform } from './launcher/launch-platform.js';
export { launchService } from './launcher/launch-service.js';
export type { LaunchOptions, RunningPlatform } from './launcher/launch-platform.js';
export { repoRoot } from './launcher/repo-root.js';
export { releaseBuild } from './launcher/release-build.js';
export { UNLIMITED_PRINCIPALS } from './launcher/unlimited-principals.js';
export { SERVICES, ServiceProcess } from './launcher/service-process.js';
export type { ServiceName } from './launcher/service-process.js';
export { createTestDatabase, testDatabaseBaseUrl } from './db/test-database.js';
export type { TestDatabase, TestDatabaseOptions } from './db/test-database.js';
export { scansOf } from './db/plan-scans.js';
export { deleteRedisKeys, testRedisPrefix, testRedisUrl } from './redis/test-redis-prefix.js';
export { testNatsUrl, testSubjectPrefix } from './nats/test-subject-prefix.js';
export { SseClient } from './http/sse-client.js';
export type { SseFrame } from './http/sse-client.js';
export { auditFrames, ResumingSseClient } from './http/resuming-sse-client.js';
export type { ResumedFrame, ResumingSseOptions } from './http/resuming-sse-client.js';
export { ApiClient } from './http/api-client.js';
export { CHROMIUM_PATH, launchChromium } from './browser/launch-chromium.js';
export type { ApiResponse } from './http/api-client.js';
export { FakeOtlpReceiver } from './fakes/fake-otlp.receiver.js';
export type { ReceivedSpan } from './fakes/fake-otlp.receiver.js';
export { OwnedProcess } from './services/owned-process.js';
export { startOwnedNats, startOwnedPostgres, startOwnedRedis } from './services/owned-services.js';
export type { OwnedPostgres } from './services/owned-services.js';
export { isAlive, pidsOf } from './processes/host-processes.js';
export { processUsage } from './processes/process-usage.js';
export type { ProcessUsage } from './processes/process-usage.js';
export { describeLoad, percentileOf, runResumingLoad } from './load/resuming-load.js';
export type { ResumingLoadOptions, ResumingLoadResult } from './load/resuming-load.js';
export {
  recordObserved,
  registerRunDir,
  registerSecret,
  registerSecrets,
  SECRET_REGISTRY_ENV,
} from './secrets/secret-registry.js';
export { describeLeaks, scanForSecrets } from './secrets/secret-scanner.js';
export { backOff, holdFault, letExpire, quietPeriod } from './time/deliberate-waits.js';
export { pollFor, pollUntil } from './time/poll-until.js';
export { settleWithin } from './time/settle-within.js';
export type { SecretLeak } from './secrets/secret-scanner.js';
export { recordingFetch } from './secrets/recording-fetch.js';
export { TcpProxy } from './chaos/tcp-proxy.js';
export type { ProxiedConnection, TcpRelay } from './chaos/tcp-proxy.js';
