import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';

export interface ScrapeTarget {
  job: string;
  address: string;
}

export interface PromResult {
  status: 'success' | 'error';
  error?: string;
  data?: { resultType: string; result: unknown[] };
}

/** Debian's `prometheus` binary, installed by scripts/prepare.sh (apt) when missing. */
export function prometheusBinary(name: 'prometheus' | 'promtool' = 'prometheus'): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  if (found.status !== 0)
    throw new Error(
      `${name} is not installed: run scripts/prepare.sh (it installs the Debian package prometheus)`,
    );
  return found.stdout.trim();
}

/** A real Prometheus scraping `targets` every second and evaluating `ruleFiles` every second. */
export class PrometheusServer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly url: string,
  ) {}

  static async start(targets: ScrapeTarget[], ruleFiles: string[]): Promise<PrometheusServer> {
    const dir = mkdtempSync(join(tmpdir(), 'agentry-prometheus-'));
    const config = {
      global: { scrape_interval: '1s', evaluation_interval: '1s', scrape_timeout: '900ms' },
      rule_files: ruleFiles,
      scrape_configs: targets.map((t) => ({ job_name: t.job, static_configs: [{ targets: [t.address] }] })),
    };
    writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config));
    const port = await getPort({ host: '127.0.0.1' });
    const child = spawn(
      prometheusBinary(),
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const server = new PrometheusServer(child, dir, `http://127.0.0.1:${port}`);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`prometheus exited: ${stderr}`);
      const ready = await fetch(`${server.url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return server;
      await new Promise((r) => setTimeout(r, 200));
    }
    await server.stop();
    throw new Error(`prometheus was not ready: ${stderr}`);
  }

  async query(expr: string): Promise<PromResult> {
    const response = await fetch(`${this.url}/api/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: expr }).toString(),
    });
    return (await response.json()) as PromResult;
  }

  async api<T>(path: string): Promise<T> {
    const response = await fetch(`${this.url}${path}`);
    return ((await response.json()) as { data: T }).data;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
