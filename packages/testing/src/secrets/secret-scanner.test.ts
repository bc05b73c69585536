import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setup } from './e2e-secret-scan.js';
import { recordingFetch } from './recording-fetch.js';
import { recordObserved, registerRunDir, registerSecret, SECRET_REGISTRY_ENV } from './secret-registry.js';
import { describeLeaks, scanForSecrets } from './secret-scanner.js';
import { FakeOtlpReceiver } from '../fakes/fake-otlp.receiver.js';

describe('secret scanner', () => {
  let scratch: string;
  let registry: string;
  let runDir: string;
  const previous = process.env[SECRET_REGISTRY_ENV];

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'secret-scan-'));
    registry = join(scratch, 'registry');
    runDir = join(scratch, 'run');
    mkdirSync(registry);
    mkdirSync(runDir);
    process.env[SECRET_REGISTRY_ENV] = registry;
  });
  afterEach(() => {
    if (previous === undefined) delete process.env[SECRET_REGISTRY_ENV];
    else process.env[SECRET_REGISTRY_ENV] = previous;
    rmSync(scratch, { recursive: true, force: true });
  });

  it('finds a registered secret planted in a service log, naming the file and line but not the secret', () => {
    registerRunDir(runDir);
    registerSecret('vault credential', 'ghp_planted-secret-value-42');
    writeFileSync(join(runDir, 'control.log'), '{"msg":"ok"}\n');
    expect(scanForSecrets(registry)).toEqual([]);

    writeFileSync(
      join(runDir, 'dataplane.log'),
      '{"msg":"starting"}\n{"msg":"calling","auth":"Bearer ghp_planted-secret-value-42"}\n',
    );
    const leaks = scanForSecrets(registry);
    expect(leaks).toEqual([{ label: 'vault credential', file: join(runDir, 'dataplane.log'), line: 2 }]);
    expect(describeLeaks(leaks)).not.toContain('ghp_planted');
  });

  it('finds a secret in a recorded response or event, and ignores files outside the scanned run directories', () => {
    registerRunDir(runDir);
    registerSecret('api key', 'ak_live_0123456789abcdef');
    writeFileSync(join(scratch, 'elsewhere.log'), 'ak_live_0123456789abcdef\n');
    mkdirSync(join(runDir, 'workdirs'));
    writeFileSync(join(runDir, 'workdirs', 'notes.log'), 'ak_live_0123456789abcdef\n');
    expect(scanForSecrets(registry)).toEqual([]);

    recordObserved('sse agent.message', '{"text":"your key is ak_live_0123456789abcdef"}');
    expect(scanForSecrets(registry)).toEqual([expect.objectContaining({ label: 'api key', line: 1 })]);
  });

  it('ignores values too short to be told from ordinary text', () => {
    registerRunDir(runDir);
    registerSecret('password', 'admin');
    writeFileSync(join(runDir, 'gateway.log'), 'seeded admin\n');
    expect(scanForSecrets(registry)).toEqual([]);
  });

  it('fails the e2e run at teardown when a registered secret leaked into a log', () => {
    const teardown = setup();
    const runRegistry = process.env[SECRET_REGISTRY_ENV]!;
    const exitCode = process.exitCode;
    try {
      registerRunDir(runDir);
      registerSecret('signing key', 'jwt-signing-key-planted-1234');
      writeFileSync(join(runDir, 'gateway.log'), 'key=jwt-signing-key-planted-1234\n');
      expect(() => teardown()).toThrow(
        /1 registered secret\(s\) appeared[\s\S]*signing key in .*gateway\.log:1/,
      );
    } finally {
      process.exitCode = exitCode;
      rmSync(runRegistry, { recursive: true, force: true });
    }
  });

  it('records what GET requests made with recordingFetch returned, and not what creations returned', async () => {
    registerSecret('environment key', 'agentry_envkey_planted123456');
    const server = createServer((request, response) =>
      response.end(`{"method":"${request.method}","key":"agentry_envkey_planted123456"}`),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/environments/env_1/keys`;
    try {
      await (await recordingFetch(url, { method: 'POST' })).text();
      expect(scanForSecrets(registry)).toEqual([]);
      await (await recordingFetch(url)).text();
      // The GET's body is recorded in the background; the POST before it, had it been recorded, would be line 1.
      await vi.waitFor(() =>
        expect(scanForSecrets(registry)).toEqual([
          expect.objectContaining({ label: 'environment key', line: 1 }),
        ]),
      );
    } finally {
      server.close();
    }
  });

  it('finds a secret in a span a service exported to the trace receiver', async () => {
    registerSecret('repository token', 'ghp_traced-secret-value-7');
    const receiver = await FakeOtlpReceiver.start();
    try {
      const span = (value: string) => ({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agentry-worker' } }] },
            scopeSpans: [
              {
                spans: [
                  {
                    name: 'git clone',
                    traceId: 't',
                    spanId: 's',
                    attributes: [{ key: 'url.full', value: { stringValue: value } }],
                  },
                ],
              },
            ],
          },
        ],
      });
      const post = (body: unknown) =>
        fetch(`${receiver.endpoint}/v1/traces`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      await post(span('https://git.example/repo.git'));
      expect(scanForSecrets(registry)).toEqual([]);
      await post(span('https://x-access-token:ghp_traced-secret-value-7@git.example/repo.git'));
      expect(scanForSecrets(registry).map((leak) => leak.label)).toEqual(['repository token']);
    } finally {
      await receiver.stop();
    }
  });
});
