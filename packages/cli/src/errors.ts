/** Exit codes scripts can rely on (also in the README). */
export const EXIT = {
  ok: 0,
  /** A request failed or something else went wrong. */
  failure: 1,
  /** Wrong command-line usage or an invalid file. */
  usage: 2,
  /** Not signed in, or not allowed (401/403). */
  unauthorized: 3,
  /** The resource does not exist (404). */
  notFound: 4,
  /** A conflict, e.g. a stale version (409). */
  conflict: 5,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}

export function exitCodeOfStatus(status: number): number {
  if (status === 401 || status === 403) return EXIT.unauthorized;
  if (status === 404) return EXIT.notFound;
  if (status === 409) return EXIT.conflict;
  if (status === 400 || status === 422) return EXIT.usage;
  return EXIT.failure;
}
