import type { Command } from 'commander';
import { Api } from './api.js';
import { resolveConfig, type GlobalFlags } from './config.js';

/** What every command reads from the global flags: the API as configured and the output format. */
export interface Context {
  api(): Api;
  json(): boolean;
}

export function contextOf(program: Command): Context {
  const flags = () => program.opts<GlobalFlags>();
  return {
    api: () => new Api(resolveConfig(flags())),
    json: () => flags().json === true,
  };
}
