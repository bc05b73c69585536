// Every contract. Narrower entry points: ./v1, ./api, ./nats, ./events.
export * from './common/errors.js';
export * from './common/invalid-request.js';
export * from './common/ids.js';
export * from './jobs/catalog.js';
export * from './v1.js';
export * from './api.js';
export * from './nats.js';
export * from './events.js';
