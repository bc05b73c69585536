import { API_DOCUMENT_VERSION } from './document-version.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-builder.js';
import { ROUTE_TABLE } from './route-table.js';

/** The gateway's OpenAPI document, built from its route table. */
export function gatewayOpenApi(): OpenApiDocument {
  return buildOpenApiDocument(ROUTE_TABLE, API_DOCUMENT_VERSION);
}

/** The document as committed in docs/openapi.json. */
export function renderOpenApi(document: OpenApiDocument = gatewayOpenApi()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
