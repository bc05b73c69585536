import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_ENTRY = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** Colour and cursor escapes readline writes, and carriage returns. */
const CONTROL = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]|\\r`, 'g');

/**
 * The CLI on a real pseudo-terminal (util-linux `script`): what it prints is read back as a person
 * would see it, and keys (Enter, Ctrl-C) are typed into the terminal.
 */
export class Terminal {
  private readonly child: ChildProcessWithoutNullStreams;
  private output = '';
  readonly exited: Promise<number>;

  constructor(args: string[], env: Record<string, string>) {
    const command = [process.execPath, CLI_ENTRY, ...args].map(shellQuote).join(' ');
    this.child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, ...env, TERM: 'dumb', COLUMNS: '200' },
    });
    this.child.stdout.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code ?? -1)));
  }

  get screen(): string {
    return this.output.replace(CONTROL, '');
  }

  type(text: string): void {
    this.child.stdin.write(text);
  }

  /** Resolves when the screen (after `from` characters) matches; fails showing what it holds. */
  waitFor(pattern: RegExp, timeoutMs = 60_000, from = 0): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = this.screen.slice(from).match(pattern);
        if (!match) return;
        stop();
        resolve(match);
      };
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`no ${pattern} on the screen:\n${this.screen}`));
      }, timeoutMs);
      const stop = () => {
        clearTimeout(timer);
        this.child.stdout.off('data', check);
        this.child.stderr.off('data', check);
      };
      this.child.stdout.on('data', check);
      this.child.stderr.on('data', check);
      check();
    });
  }

  /** Characters on the screen so far: where a later `waitFor` starts reading. */
  get mark(): number {
    return this.screen.length;
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
