import { Controller, Get, Header, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Public } from '@agentry/platform';
import { renderDocsPage } from './docs-page.js';
import { API_DOCUMENT_VERSION } from './document-version.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-builder.js';

/**
 * `/docs`: the OpenAPI document of every controller this server runs, and a page listing its
 * operations; readable without credentials.
 */
@Public()
@Controller('docs')
export class DocsController {
  private document: OpenApiDocument | undefined;
  private page: string | undefined;

  constructor(private readonly discovery: DiscoveryService) {}

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
    const controllers = this.discovery
      .getControllers()
      .flatMap((wrapper) => (wrapper.metatype ? [wrapper.metatype as Type] : []));
    this.document ??= buildOpenApiDocument(controllers, API_DOCUMENT_VERSION);
    return this.document;
  }
}
