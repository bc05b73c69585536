import { Inject, Injectable } from '@nestjs/common';
import { toModelConfig, type CreateAgentRequest } from '@agentry/contracts';
import { assertModelServable, modelProvidersFromEnv, type ModelProvidersConfig } from '@agentry/harness';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';

/**
 * The models this installation can serve, from the same provider settings the dataplane runs turns with:
 * an agent naming anything else is refused when it is written, not when its first turn fails.
 */
@Injectable()
export class ModelCatalog {
  private readonly providers: ModelProvidersConfig;

  constructor(@Inject(CONTROL_CONFIG) config: ControlEnv) {
    this.providers = { providers: modelProvidersFromEnv(config) };
  }

  /** A 400 naming the configured providers when the model cannot be served. */
  assertServable(model: CreateAgentRequest['model']): void {
    assertModelServable(toModelConfig(model).id, this.providers);
  }
}
