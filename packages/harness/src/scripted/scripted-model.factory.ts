import type { ModelPort } from '../model/model-port.js';
import type { ScriptedModelFactoryOptions } from '../model/model-providers.config.js';
import { ScriptedModel } from './scripted-model.js';

/**
 * The `scripted` entry of ModelProvidersConfig: the agent's model settings carry the script
 * (`{ script: {turns: [...]}, contextWindow? }`); no settings means the default echo model.
 */
export function scriptedModelFactory({ id, settings }: ScriptedModelFactoryOptions): ModelPort {
  const contextWindow = typeof settings?.contextWindow === 'number' ? settings.contextWindow : undefined;
  return new ScriptedModel({
    id,
    ...(settings?.script !== undefined ? { script: settings.script } : {}),
    ...(contextWindow ? { contextWindow } : {}),
  });
}
