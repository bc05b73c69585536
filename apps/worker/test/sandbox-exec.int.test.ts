import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handsCallKey, handsResultKey } from '@agentry/contracts';
import { isAlive, pidsOf } from '@agentry/testing';
import { startHands, type Hands } from './sandbox-fixture.js';

const hasBwrap = existsSync('/usr/bin/bwrap');

function waitFor<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  return vi.waitFor(
    () => {
      const value = probe();
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: 20 },
  );
}

async function httpServer(body: string): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe.runIf(hasBwrap)('the worker runs every bash and file call in the session sandbox', () => {
  let hands: Hands;
  let allowed: { server: Server; port: number };
  let other: { server: Server; port: number };

  beforeAll(async () => {
    allowed = await httpServer('hello from the allowed host');
    other = await httpServer('should never be read');
    hands = await startHands({
      AGENTRY_SANDBOX_FILE_SIZE_BYTES: String(1024 * 1024),
      AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED: `127.0.0.1:${allowed.port},127.0.0.1:${other.port}`,
    });
  });

  afterAll(async () => {
    await hands?.stop();
    allowed?.server.close();
    other?.server.close();
  });

  it('does not run a call another worker took (it may have run there); a read runs anyway', async () => {
    const taken = `toolu_taken_${process.pid}_${Date.now()}`;
    await hands.redis.set(handsCallKey(taken), 'another-worker', 'PX', 60_000);
    const refused = await hands.run(
      'sess_taken',
      'bash',
      { command: 'echo ran > ran.txt' },
      { toolUseId: taken },
    );
    expect(refused).toMatchObject({ isError: true, reason: 'interrupted' });
    expect(hands.text(refused)).toMatch(/started on another worker.*may or may not have run.*not run again/);
    const listed = await hands.run('sess_taken', 'bash', { command: 'ls' });
    expect(hands.text(listed)).not.toContain('ran.txt');
    const readTaken = `toolu_read_${process.pid}_${Date.now()}`;
    await hands.redis.set(handsCallKey(readTaken), 'another-worker', 'PX', 60_000);
    const read = await hands.run('sess_taken', 'glob', { pattern: '*' }, { toolUseId: readTaken });
    expect(read.isError).toBe(false);
    // A call this worker took is its own: it runs.
    const own = `toolu_own_${process.pid}_${Date.now()}`;
    const ran = await hands.run('sess_taken', 'bash', { command: 'echo mine' }, { toolUseId: own });
    expect(hands.text(ran)).toContain('mine');
    expect(await hands.redis.get(handsCallKey(own))).toMatch(/.+/);
  });

  it('answers a call whose result was recorded with that result, without running it again', async () => {
    const done = `toolu_done_${process.pid}_${Date.now()}`;
    const recorded = { toolUseId: done, isError: false, content: [{ type: 'text', text: 'ran before' }] };
    await hands.redis.set(handsResultKey(done), JSON.stringify(recorded), 'EX', 60);
    const again = await hands.run(
      'sess_recorded',
      'bash',
      { command: 'echo again > again.txt' },
      { toolUseId: done },
    );
    expect(again).toEqual(recorded);
    expect(hands.text(await hands.run('sess_recorded', 'bash', { command: 'ls' }))).not.toContain(
      'again.txt',
    );
  });

  it('keeps cwd and exported variables across bash calls until restart', async () => {
    expect(
      hands.text(
        await hands.run('sess_state', 'bash', {
          command: 'mkdir -p sub/dir && cd sub/dir && export GREETING=hi && LOCAL_ONLY=x',
        }),
      ),
    ).toBe('');
    expect(
      hands.text(
        await hands.run('sess_state', 'bash', { command: 'pwd; echo "$GREETING" "${LOCAL_ONLY:-unset}"' }),
      ),
    ).toBe('/workspace/sub/dir\nhi unset');
    const failed = await hands.run('sess_state', 'bash', { command: 'echo partial; exit 3' });
    expect(failed).toMatchObject({ isError: true, reason: 'nonzero_exit' });
    expect(hands.text(failed)).toBe('partial');
    expect(hands.text(await hands.run('sess_state', 'bash', { restart: true }))).toBe(
      'bash session restarted',
    );
    expect(
      hands.text(await hands.run('sess_state', 'bash', { command: 'pwd; echo "${GREETING:-gone}"' })),
    ).toBe('/workspace\ngone');
  });

  it('shares one workspace between bash and the file tools, at /workspace', async () => {
    await hands.run('sess_files', 'write', { file_path: 'notes/a.txt', content: 'from write\n' });
    expect(
      hands.text(
        await hands.run('sess_files', 'bash', {
          command: 'cat /workspace/notes/a.txt && echo more >> notes/a.txt',
        }),
      ),
    ).toBe('from write');
    expect(hands.text(await hands.run('sess_files', 'read', { file_path: '/workspace/notes/a.txt' }))).toBe(
      'from write\nmore\n',
    );
  });

  it('ends a cancelled bash call within a second, killing its process', async () => {
    const controller = new AbortController();
    const call = hands.run(
      'sess_abort',
      'bash',
      { command: 'sleep 61.4711' },
      { signal: controller.signal, timeoutMs: 120_000 },
    );
    const pid = await waitFor(() => pidsOf('sleep 61.4711')[0], 15_000, 'the sleep to start');
    controller.abort(new Error('cancelled by the Brain'));
    await waitFor(() => (isAlive(pid) ? undefined : true), 1_000, 'the sleep to die within a second');
    const result = await call;
    expect(result).toMatchObject({ isError: true, reason: 'cancelled' });
    expect(hands.text(result)).toContain('cancelled');
  });

  it('kills the process group when a call times out', async () => {
    const result = await hands.run('sess_timeout', 'bash', {
      command: '(sleep 62.4711 &); sleep 62.4712',
      timeout_ms: 500,
    });
    expect(result).toMatchObject({ isError: true, reason: 'timeout' });
    await waitFor(
      () => (pidsOf('sleep 62.4711').length + pidsOf('sleep 62.4712').length === 0 ? true : undefined),
      3_000,
      'no sleep left',
    );
  });

  it('sees neither other sessions, nor the host, nor the worker environment', async () => {
    await hands.run('sess_victim', 'write', { file_path: 'secret.txt', content: 'victim secret' });
    const victimFile = `${hands.sandboxes.dirOf('tenant_hands', 'sess_victim')}/workspace/secret.txt`;
    process.env.AGENTRY_TEST_WORKER_SECRET = 'worker-secret-value';
    const probe = [
      `cat ${victimFile} 2>&1 || echo no-victim`,
      'cat /etc/agentry-userland',
      `ls ${process.cwd()} 2>&1 >/dev/null || echo no-repo`,
      'tr "\\0" "\\n" < /proc/1/environ | grep -c WORKER_SECRET || true',
      'ls /proc | grep -cE "^[0-9]+$"',
      'id -u',
    ].join('; ');
    const out = hands.text(await hands.run('sess_attacker', 'bash', { command: probe }));
    expect(out).not.toContain('victim secret');
    expect(out).not.toContain('worker-secret-value');
    expect(out).toMatch(/no-victim/);
    // The root is the platform's userland, not the worker host's.
    expect(out).toContain(hands.images.base!.id);
    expect(out).toMatch(/no-repo/);
    const lines = out.trim().split('\n');
    expect(lines.at(-1)).toBe('1000');
    expect(Number(lines.at(-2))).toBeLessThan(10);
    expect(lines.at(-3)).toBe('0');
  });

  it('cannot open TCP to the platform services, directly or through the proxy', async () => {
    for (const port of [5432, 6379, 4222]) {
      const direct = await hands.run('sess_net', 'bash', {
        command: `timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' && echo OPEN || echo closed`,
      });
      expect(hands.text(direct)).toMatch(/closed$/);
      const proxied = await hands.run('sess_net', 'bash', {
        command: `curl -sS -m 5 -p --noproxy "" -x "$HTTPS_PROXY" http://127.0.0.1:${port}/ 2>&1; echo " rc=$?"`,
      });
      expect(hands.text(proxied)).toMatch(/response 403[\s\S]*rc=56$/);
    }
    const metadata = await hands.run('sess_net', 'bash', {
      command: 'curl -sS -m 5 http://169.254.169.254/latest/meta-data/ 2>&1; echo " rc=$?"',
    });
    expect(hands.text(metadata)).toMatch(/egress refused: .*(link-local|metadata)/);
  });

  it('with limited networking reaches an allowed host and is refused any other', async () => {
    // Inside the sandbox 127.0.0.1 is its own loopback (NO_PROXY); the host's test servers are asked through the proxy.
    const networking = { type: 'limited' as const, allowedHosts: [`127.0.0.1:${allowed.port}`] };
    const ok = await hands.run(
      'sess_limited',
      'bash',
      { command: `curl -sS -m 5 --noproxy "" -x "$HTTP_PROXY" http://127.0.0.1:${allowed.port}/` },
      { networking },
    );
    expect(hands.text(ok)).toBe('hello from the allowed host');
    const refused = await hands.run(
      'sess_limited',
      'bash',
      { command: `curl -sS -m 5 --noproxy "" -x "$HTTP_PROXY" http://127.0.0.1:${other.port}/` },
      { networking },
    );
    expect(hands.text(refused)).toContain(
      `egress refused: 127.0.0.1:${other.port} is not in this environment's allowed_hosts`,
    );
    const tunnel = await hands.run(
      'sess_limited',
      'bash',
      {
        command: `curl -sS -m 5 -p --noproxy "" -x "$HTTP_PROXY" http://127.0.0.1:${other.port}/ 2>&1; echo " rc=$?"`,
      },
      { networking },
    );
    expect(hands.text(tunnel)).not.toContain('should never be read');
  });

  describe('bad input ends in a clear error result, and the session goes on', () => {
    it('a path outside the workspace or a symlink out of it', async () => {
      const outside = await hands.run('sess_bad', 'read', { file_path: '/etc/passwd' });
      expect(outside).toMatchObject({ isError: true, reason: 'path_escape' });
      expect(hands.text(outside)).toContain('outside the workspace');
      expect(
        (await hands.run('sess_bad', 'write', { file_path: '../../escape.txt', content: 'x' })).isError,
      ).toBe(true);
      expect(existsSync(`${hands.root}/tenant_hands/escape.txt`)).toBe(false);
      await hands.run('sess_bad', 'bash', { command: 'ln -s /etc/hostname leak && ln -s / rootlink' });
      for (const file_path of ['leak', 'rootlink/etc/hostname']) {
        const read = await hands.run('sess_bad', 'read', { file_path });
        expect(read).toMatchObject({ isError: true, reason: 'path_escape' });
      }
    });

    it('an output flood is capped', async () => {
      const flood = await hands.run('sess_bad', 'bash', {
        command: 'yes flood | head -c 20000000; echo; echo the-end',
      });
      expect(flood.isError).toBe(false);
      const text = hands.text(flood);
      expect(text.length).toBeLessThan(hands.config.AGENTRY_SANDBOX_OUTPUT_BYTES + 1000);
      expect(text).toMatch(/bytes truncated/);
      expect(text).toMatch(/the-end$/);
    });

    it('filling the disk stops at the file-size limit', async () => {
      const fill = await hands.run('sess_bad', 'bash', { command: 'head -c 5000000 /dev/zero > big.bin' });
      expect(fill.isError).toBe(true);
      expect(hands.text(fill)).toMatch(/File size limit exceeded|exit 153/);
      expect(hands.text(await hands.run('sess_bad', 'bash', { command: 'stat -c %s big.bin' }))).toBe(
        String(1024 * 1024),
      );
    });

    it('an unknown tool', async () => {
      expect(await hands.run('sess_bad', 'execute', { command: 'ls' })).toMatchObject({
        isError: true,
        reason: 'unknown_tool',
      });
    });
  });
});

describe.runIf(hasBwrap)('idle session sandboxes', () => {
  let hands: Hands;
  beforeAll(async () => {
    hands = await startHands({
      AGENTRY_SANDBOX_IDLE_MS: '300',
      AGENTRY_SANDBOX_SOCKET_DIR: `/tmp/agentry-egress-idle-${process.pid}`,
    });
  });
  afterAll(async () => {
    await hands?.stop();
    rmSync(hands.config.AGENTRY_SANDBOX_SOCKET_DIR, { recursive: true, force: true });
  });

  it('closes a sandbox after its idle time, never while a call runs, and keeps its files', async () => {
    const socketDir = hands.config.AGENTRY_SANDBOX_SOCKET_DIR;
    const long = await hands.run('sess_idle', 'bash', {
      command: 'echo kept > kept.txt; sleep 1.5; echo finished',
    });
    expect(hands.text(long)).toBe('finished');
    await waitFor(
      () => (execFileSync('ls', [socketDir]).toString().trim() === '' ? true : undefined),
      5_000,
      'the idle sandbox to close',
    );
    expect(hands.text(await hands.run('sess_idle', 'bash', { command: 'cat kept.txt' }))).toBe('kept');
  });
});

describe('a sandbox that cannot start', () => {
  it('answers a clear error result and the worker goes on', async () => {
    const hands = await startHands({ AGENTRY_SANDBOX_SOCKET_DIR: '/dev/null/not-a-directory' });
    try {
      const result = await hands.run('sess_down', 'bash', { command: 'true' });
      expect(result).toMatchObject({ isError: true, reason: 'sandbox_unavailable' });
      expect(hands.text(result)).toContain('could not be started');
    } finally {
      await hands.stop();
    }
  });

  it('says so when bubblewrap is missing, call after call', async () => {
    const hands = await startHands({ AGENTRY_SANDBOX_BWRAP_PATH: '/nonexistent/bwrap' });
    try {
      for (const name of ['bash', 'write']) {
        const result = await hands.run('sess_down', name, {
          command: 'true',
          file_path: 'a.txt',
          content: 'x',
        });
        expect(result).toMatchObject({ isError: true, reason: 'sandbox_unavailable' });
      }
    } finally {
      await hands.stop();
    }
  });
});

describe.runIf(hasBwrap)('configured limits', () => {
  it('applies the default bash timeout when a call gives none', async () => {
    const hands = await startHands({ AGENTRY_SANDBOX_DEFAULT_TIMEOUT_MS: '700' });
    try {
      const result = await hands.run('sess_default_timeout', 'bash', { command: 'sleep 20' });
      expect(result).toMatchObject({ isError: true, reason: 'timeout' });
      expect(hands.text(result)).toContain('timed out after 700ms');
    } finally {
      await hands.stop();
    }
  });
});
