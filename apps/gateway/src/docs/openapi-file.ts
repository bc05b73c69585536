import { fileURLToPath } from 'node:url';

/** The committed OpenAPI document: `docs/openapi.json` at the repository root. */
export const OPENAPI_FILE = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));
