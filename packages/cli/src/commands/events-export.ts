import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { unwrap } from '../api.js';
import type { Context } from '../context.js';

/** `agentry events export <session>`: every event of a session, in order, as one JSON array. */
export function registerEventsExport(program: Command, context: Context): void {
  program
    .command('events')
    .description("a session's events")
    .command('export <session>')
    .description('write every event of a session as JSON (to stdout, or --output)')
    .option('-o, --output <file>', 'write to this file')
    .action(async (sessionId: string, flags: { output?: string }) => {
      const api = context.api();
      const pageOf = async (page: string | undefined) =>
        unwrap(
          await api.client.GET('/v1/sessions/{id}/events', {
            params: {
              path: { id: sessionId },
              query: { limit: 100, order: 'asc', ...(page ? { page } : {}) },
            },
          }),
        );
      const events: unknown[] = [];
      let page: string | undefined;
      do {
        const reply = await pageOf(page);
        events.push(...reply.data);
        page = reply.next_page ?? undefined;
      } while (page);
      const json = `${JSON.stringify(events, null, 2)}\n`;
      if (flags.output) writeFileSync(flags.output, json);
      else process.stdout.write(json);
      if (flags.output) process.stderr.write(`${events.length} events written to ${flags.output}\n`);
    });
}
