import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import type { QueryValue } from '../api.js';
import { CliError, EXIT } from '../errors.js';
import { printList, printObject } from '../output.js';
import { RESOURCE_KINDS, type ResourceKind, type ResourceRow } from '../resource-kinds.js';
import type { Context } from '../context.js';

interface BodyFlags {
  file?: string;
  set?: string[];
  name?: string;
  model?: string;
  system?: string;
  type?: string;
  agent?: string;
  environment?: string;
  title?: string;
  displayName?: string;
}

/** `agentry <kind> list|get|create|update|archive` for agents, environments, sessions, vaults, deployments. */
export function registerResourceCommands(program: Command, context: Context): void {
  for (const kind of RESOURCE_KINDS) {
    const group = program.command(kind.name).description(`${kind.name}: list, get, create, update, archive`);
    const list = group
      .command('list')
      .description(`list ${kind.name}`)
      .option('--limit <n>', 'at most this many', '50')
      .option('--archived', 'include archived ones');
    for (const flag of Object.keys(kind.filters ?? {})) list.option(`--${flag} <value>`, `only this ${flag}`);
    list.action(async (flags: Record<string, string | boolean | undefined>) => {
      const query: Record<string, QueryValue> = {
        limit: flags.limit,
        include_archived: flags.archived || undefined,
      };
      for (const [flag, param] of Object.entries(kind.filters ?? {})) query[param] = flags[flag];
      const page = await context.api().call<{ data: ResourceRow[] }>('GET', kind.path, undefined, query);
      printList(page.data, kind.columns, context.json());
    });
    group
      .command('get <id>')
      .description(`show one ${kind.singular}`)
      .action(async (id: string) => printObject(await context.api().call('GET', `${kind.path}/${enc(id)}`)));
    bodyOptions(
      group
        .command('create')
        .description(`create ${kind.singular === 'agent' ? 'an' : 'a'} ${kind.singular}`),
    ).action(async (flags: BodyFlags) =>
      printObject(await context.api().call('POST', kind.path, bodyOf(kind, flags))),
    );
    bodyOptions(group.command('update <id>').description(`change fields of ${a(kind.singular)}`)).action(
      async (id: string, flags: BodyFlags) => {
        const body = bodyOf(kind, flags);
        const api = context.api();
        if (kind.versioned && body.version === undefined)
          body.version = (await api.call<{ version: number }>('GET', `${kind.path}/${enc(id)}`)).version;
        printObject(await api.call('POST', `${kind.path}/${enc(id)}`, body));
      },
    );
    group
      .command('archive <id>')
      .description(`archive ${a(kind.singular)}`)
      .action(async (id: string) =>
        printObject(await context.api().call('POST', `${kind.path}/${enc(id)}/archive`)),
      );
  }
}

function bodyOptions(command: Command): Command {
  return command
    .option('-f, --file <path>', 'the body as a YAML or JSON file')
    .option('--set <field=value...>', 'a field (dotted path; the value is read as YAML)')
    .option('--name <name>')
    .option('--model <model>', 'agents: the model id')
    .option('--system <prompt>', 'agents: the system prompt')
    .option('--type <type>', 'environments: cloud, self_hosted, local or remote')
    .option('--agent <id>', 'sessions, deployments: the agent')
    .option('--environment <id>', 'sessions, deployments: the environment')
    .option('--title <title>', 'sessions: a title')
    .option('--display-name <name>', 'vaults: the display name');
}

/** The request body: the file, then the named flags, then every `--set`. */
function bodyOf(kind: ResourceKind, flags: BodyFlags): Record<string, unknown> {
  const body: Record<string, unknown> = flags.file ? readBodyFile(flags.file) : {};
  const named: Record<string, unknown> = {
    name: flags.name,
    model: flags.model,
    system: flags.system,
    config: flags.type ? { type: flags.type } : undefined,
    agent: flags.agent,
    environment_id: flags.environment,
    title: flags.title,
    display_name: flags.displayName,
  };
  for (const [key, value] of Object.entries(named)) if (value !== undefined) body[key] = value;
  for (const assignment of flags.set ?? []) {
    const at = assignment.indexOf('=');
    if (at < 1) throw new CliError(`--set ${assignment}: expected field=value`, EXIT.usage);
    setPath(body, assignment.slice(0, at).split('.'), parseYaml(assignment.slice(at + 1)) as unknown);
  }
  if (Object.keys(body).length === 0 && kind.name !== 'sessions')
    throw new CliError('nothing to send: give --file, --set or field flags', EXIT.usage);
  return body;
}

function readBodyFile(path: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`${path}: ${(error as Error).message}`, EXIT.usage);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new CliError(`${path}: expected an object`, EXIT.usage);
  return parsed as Record<string, unknown>;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (!head) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const next = (target[head] ??= {}) as Record<string, unknown>;
  setPath(next, rest, value);
}

const enc = encodeURIComponent;
const a = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
