import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import { ApiKeysService } from './api-keys.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('keys', {
  create: S.createApiKey,
  list: S.listApiKeys,
  revoke: S.revokeApiKey,
})
export class ApiKeysHandler {
  constructor(readonly keys: ApiKeysService) {}
}
