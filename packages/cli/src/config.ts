import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where the CLI talks to and as whom. */
export interface CliConfig {
  url: string;
  token?: string;
  apiKey?: string;
  namespace?: string;
}

export interface GlobalFlags {
  url?: string;
  token?: string;
  apiKey?: string;
  namespace?: string;
  json?: boolean;
}

const DEFAULT_URL = 'http://127.0.0.1:8080';

/** `AGENTRY_CONFIG`, else `~/.config/agentry/config.json`. */
export function configPath(): string {
  return process.env.AGENTRY_CONFIG ?? join(homedir(), '.config', 'agentry', 'config.json');
}

function readFileConfig(): Partial<CliConfig> {
  try {
    return JSON.parse(readFileSync(configPath(), 'utf8')) as Partial<CliConfig>;
  } catch {
    return {};
  }
}

/** Flags first, then `AGENTRY_URL`/`AGENTRY_TOKEN`/`AGENTRY_API_KEY`/`AGENTRY_NAMESPACE`, then the file. */
export function resolveConfig(flags: GlobalFlags): CliConfig {
  const file = readFileConfig();
  const env = process.env;
  const config: CliConfig = { url: flags.url ?? env.AGENTRY_URL ?? file.url ?? DEFAULT_URL };
  const token = flags.token ?? env.AGENTRY_TOKEN ?? file.token;
  const apiKey = flags.apiKey ?? env.AGENTRY_API_KEY ?? file.apiKey;
  const namespace = flags.namespace ?? env.AGENTRY_NAMESPACE ?? file.namespace;
  // An API key given on the command line or in the environment wins over a saved token.
  if (apiKey && (flags.apiKey || env.AGENTRY_API_KEY || !token)) config.apiKey = apiKey;
  else if (token) config.token = token;
  if (namespace) config.namespace = namespace;
  return config;
}

/** Saves the config (mode 0600: it holds a credential). */
export function saveConfig(config: CliConfig): void {
  const path = configPath();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}
