/** A migration command failed; `output` holds the tail of what the Prisma CLI printed. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';

  constructor(
    message: string,
    readonly output: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
