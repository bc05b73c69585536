import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '@agentry/platform';
import { renderDocsPage } from './docs-page.js';
import { gatewayOpenApi } from './gateway-openapi.js';
import type { OpenApiDocument } from './openapi-builder.js';

/**
 * `/docs`: the interactive reference and the OpenAPI document of the route table; readable without
 * credentials.
 */
@Public()
@Controller('docs')
export class DocsController {
  private document: OpenApiDocument | undefined;
  private page: string | undefined;

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  html(): string {
    this.page ??= renderDocsPage(this.openApi());
    return this.page;
  }

  @Get('openapi.json')
  json(): OpenApiDocument {
    return this.openApi();
  }

  private openApi(): OpenApiDocument {
    this.document ??= gatewayOpenApi();
    return this.document;
  }
}
