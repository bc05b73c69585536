import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { renderOpenApi } from './gateway-openapi.js';
import { OPENAPI_FILE } from './openapi-file.js';

// Regenerates the committed docs/openapi.json from the gateway's controllers and zod contracts.
writeFileSync(OPENAPI_FILE, renderOpenApi());
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
