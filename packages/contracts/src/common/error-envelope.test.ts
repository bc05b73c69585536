import { describe, expect, it } from 'vitest';
import type { ErrorType } from '@anthropic-ai/sdk/resources/shared.js';
import { AppError, ErrorCodeSchema, HTTP_STATUS_BY_CODE } from './errors.js';
import {
  CMA_ERROR_TYPES,
  CMA_ERROR_TYPE_BY_CODE,
  ErrorEnvelopeSchema,
  toErrorEnvelope,
} from './error-envelope.js';

describe('CMA error envelope', () => {
  it('maps every error code to a CMA error type', () => {
    for (const code of ErrorCodeSchema.options)
      expect(CMA_ERROR_TYPES).toContain(CMA_ERROR_TYPE_BY_CODE[code]);
  });

  it('uses the type names the SDK declares', () => {
    const sdkTypes: ErrorType[] = [
      'invalid_request_error',
      'authentication_error',
      'permission_error',
      'not_found_error',
      'conflict_error',
      'rate_limit_error',
      'api_error',
      'overloaded_error',
    ];
    for (const t of sdkTypes) expect(CMA_ERROR_TYPES).toContain(t);
  });

  it('keeps the type consistent with the HTTP status', () => {
    const byStatus: Record<number, string> = {
      401: 'authentication_error',
      404: 'not_found_error',
      409: 'conflict_error',
      413: 'request_too_large',
      529: 'overloaded_error',
    };
    for (const code of ErrorCodeSchema.options) {
      const expected = byStatus[HTTP_STATUS_BY_CODE[code]];
      if (expected) expect(CMA_ERROR_TYPE_BY_CODE[code], code).toBe(expected);
    }
  });

  it('builds a body the schema accepts', () => {
    const err = new AppError('VERSION_CONFLICT', 'agent version 3 is stale; current is 4');
    const body = toErrorEnvelope(err, 'req_01');
    expect(ErrorEnvelopeSchema.parse(body)).toEqual({
      type: 'error',
      error: {
        type: 'conflict_error',
        message: 'agent version 3 is stale; current is 4',
        code: 'VERSION_CONFLICT',
      },
      request_id: 'req_01',
    });
  });
});
