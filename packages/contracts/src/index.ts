export { AppError, ErrorBodySchema, ErrorCodeSchema, HTTP_STATUS_BY_CODE } from './errors.js';
export type { AppErrorOptions, ErrorBody, ErrorCode } from './errors.js';
