import { createInterface } from 'node:readline';
import { streamSessionEvents } from '@agentry/sdk';
import type { Command } from 'commander';
import { LiveSession } from '../live-session.js';
import { EventRenderer } from '../render.js';
import type { Context } from '../context.js';

const HELP =
  'type a message, or /allow [id], /deny [id] [message], /interrupt, /detach (Ctrl-C detaches too)';

/** `sessions connect` and `sessions tail`: attach to a live session, or print its events as they come. */
export function registerSessionStreams(program: Command, context: Context): void {
  const sessions = program.commands.find((c) => c.name() === 'sessions')!;
  sessions
    .command('connect <id>')
    .description('attach to a session: follow, send, interrupt, allow/deny; detaching leaves it running')
    .option('--after <seq>', 'replay events after this sequence number first')
    .action(async (id: string, flags: { after?: string }) => {
      const api = context.api();
      const out = (text: string) => process.stdout.write(text);
      const live = new LiveSession(api, id, out, { echoUser: true });
      const rl = createInterface({
        input: process.stdin,
        output: process.stdout,
        terminal: process.stdin.isTTY,
      });
      const say = (text: string) => out(`${text}\n`);
      const showPending = () => {
        for (const p of live.pending)
          say(`waiting for approval: ${p.name} ${JSON.stringify(p.input)} (${p.id})`);
      };
      const fail = (error: unknown) => say(`error: ${(error as Error).message}`);
      live.onIdle(showPending);
      // Live before anything is shown: a decision made right after attaching is followed to its end.
      await live.follow(flags.after === undefined ? null : Number(flags.after), fail);
      say(`attached to ${id}; ${HELP}`);
      await live.loadPending();
      showPending();
      rl.on('line', (line) => void handleLine(line.trim()).catch(fail));
      const handleLine = async (text: string) => {
        const [command, ...rest] = text.split(/\s+/);
        if (!text) return;
        if (command === '/detach') return rl.close();
        if (command === '/interrupt') return live.interrupt();
        if (command === '/allow' || command === '/deny') {
          const target = rest[0]?.startsWith('sevt_') ? rest.shift() : live.pending[0]?.id;
          if (!target) return say('nothing is waiting for approval');
          await live.confirm(target, command === '/allow', rest.join(' ') || undefined);
          return say(`${command === '/allow' ? 'allowed' : 'denied'} ${target}`);
        }
        if (command?.startsWith('/')) return say(HELP);
        await live.send(text);
      };
      rl.on('SIGINT', () => rl.close());
      await new Promise<void>((resolve) => rl.once('close', resolve));
      live.detach();
      say(`detached from ${id}; it keeps running`);
    });

  sessions
    .command('tail <id>')
    .description("print a session's events as they happen, resuming after disconnects without gaps")
    .option('--after <seq>', 'start after this sequence number (default: from the start)', '0')
    .action(async (id: string, flags: { after: string }) => {
      const api = context.api();
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      process.once('SIGTERM', () => controller.abort());
      const renderer = new EventRenderer((text) => process.stdout.write(text));
      for await (const event of streamSessionEvents({
        baseUrl: api.config.url,
        path: `/v1/sessions/${encodeURIComponent(id)}/events/stream`,
        headers: api.headers,
        lastEventId: Number(flags.after),
        signal: controller.signal,
        onReconnect: ({ lastEventId, delayMs }) =>
          process.stderr.write(`reconnecting in ${delayMs} ms after event ${lastEventId ?? '-'}\n`),
      })) {
        if (context.json()) process.stdout.write(`${JSON.stringify({ seq: event.seq, ...event.data })}\n`);
        else {
          process.stdout.write(`#${event.seq} `);
          renderer.render(event);
        }
      }
    });
}
