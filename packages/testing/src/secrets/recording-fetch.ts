import { recordObserved, SECRET_REGISTRY_ENV } from './secret-registry.js';

/**
 * `fetch` that records what `GET` requests returned (event lists and streams included) for the secret scan;
 * hand it to an SDK client (`new Anthropic({ fetch: recordingFetch })`). Creations are not recorded: they
 * may show a new secret once.
 */
export const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const request = input instanceof Request ? input : null;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  if (method !== 'GET' || !process.env[SECRET_REGISTRY_ENV]) return response;
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  // A copy of the body, read as the caller reads its own; a stream the caller aborts simply stops here too.
  response
    .clone()
    .text()
    .then((text) => recordObserved(`GET ${url.pathname} ${response.status}`, text))
    .catch(() => undefined);
  return response;
};
