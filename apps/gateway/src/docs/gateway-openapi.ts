import { AppModule } from '../app.module.js';
import { GatewayEnvSchema } from '../config/env.js';
import { API_DOCUMENT_VERSION } from './document-version.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-builder.js';
import { controllersOf } from './module-controllers.js';

/**
 * The gateway's OpenAPI document, built from the same module tree the server runs (nothing connects:
 * building a module tree only describes it), so registering a controller anywhere documents it.
 */
export function gatewayOpenApi(): OpenApiDocument {
  const config = GatewayEnvSchema.parse({
    PORT: '0',
    AGENTRY_JWT_SECRET: 'x'.repeat(32),
    AGENTRY_LOG_LEVEL: 'silent',
  });
  return buildOpenApiDocument(controllersOf(AppModule.forRoot(config)), API_DOCUMENT_VERSION);
}

/** The document as committed in docs/openapi.json. */
export function renderOpenApi(document: OpenApiDocument = gatewayOpenApi()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
