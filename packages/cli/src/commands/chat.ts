import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { CliError, EXIT } from '../errors.js';
import { LiveSession, type PendingTool } from '../live-session.js';
import type { Context } from '../context.js';
import type { Api } from '../api.js';

/** `agentry chat <agent>`: a new session, streamed as it answers, with approvals asked inline. */
export function registerChat(program: Command, context: Context): void {
  program
    .command('chat <agent>')
    .description(
      'talk to an agent (id or name) in a new session; tool calls that need approval are asked inline',
    )
    .option('--environment <id>', 'the environment (default: AGENTRY_ENVIRONMENT, else the first one)')
    .option('--title <title>', 'a title for the session')
    .action(async (agentRef: string, flags: { environment?: string; title?: string }) => {
      const api = context.api();
      const agent = await resolveAgent(api, agentRef);
      const environment =
        flags.environment ?? process.env.AGENTRY_ENVIRONMENT ?? (await firstEnvironment(api));
      const session = await api.call<{ id: string }>('POST', '/v1/sessions', {
        agent,
        environment_id: environment,
        ...(flags.title ? { title: flags.title } : {}),
      });
      await runChat(api, session.id);
    });
}

async function runChat(api: Api, sessionId: string): Promise<void> {
  const out = (text: string) => process.stdout.write(text);
  out(`session ${sessionId} (Ctrl-D leaves; the session keeps its history)\n`);
  const live = new LiveSession(api, sessionId, out, { echoUser: false });
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  let approvals: PendingTool[] = [];
  let busy = false;
  const fail = (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = EXIT.failure;
    rl.close();
  };
  const ask = () => {
    const next = approvals[0];
    rl.setPrompt(next ? `allow ${next.name} ${JSON.stringify(next.input)}? [y/n] ` : 'you> ');
    rl.prompt();
  };
  live.onIdle(() => {
    busy = false;
    approvals = [...live.pending];
    ask();
  });
  live.follow(0, fail).catch(() => undefined);
  rl.on('line', (line) => {
    const text = line.trim();
    const decision = approvals[0];
    if (decision) {
      if (!/^(y|yes|n|no)$/i.test(text)) return ask();
      approvals.shift();
      busy = true;
      live
        .confirm(decision.id, /^y/i.test(text), /^y/i.test(text) ? undefined : 'Denied from the CLI')
        .catch(fail);
      if (approvals.length > 0) ask();
      return;
    }
    if (!text || busy) return;
    if (text === '/quit') return rl.close();
    busy = true;
    live.send(text).catch(fail);
  });
  rl.on('SIGINT', () => rl.close());
  ask();
  await new Promise<void>((resolve) => rl.once('close', resolve));
  live.detach();
  out(`\nleft session ${sessionId}\n`);
}

async function resolveAgent(api: Api, ref: string): Promise<string> {
  if (ref.startsWith('agent_')) return ref;
  const page = await api.call<{ data: { id: string; name: string }[] }>('GET', '/v1/agents', undefined, {
    limit: 100,
  });
  const match = page.data.find((a) => a.name === ref);
  if (!match) throw new CliError(`no agent named ${ref}`, EXIT.notFound);
  return match.id;
}

async function firstEnvironment(api: Api): Promise<string> {
  const page = await api.call<{ data: { id: string }[] }>('GET', '/v1/environments', undefined, { limit: 1 });
  const first = page.data[0];
  if (!first) throw new CliError('no environment: create one or give --environment', EXIT.usage);
  return first.id;
}
