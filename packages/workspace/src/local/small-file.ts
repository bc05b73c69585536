import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Files up to this size are read and written with synchronous calls (see readSmallFile). */
export const SMALL_FILE_BYTES = 256 * 1024;

/**
 * The whole content of a file of at most SMALL_FILE_BYTES, read with synchronous calls; null for a larger
 * one, which the caller reads asynchronously. On a local disk the four calls take microseconds together,
 * where each asynchronous call is a hand-off to the thread pool and back (tens of microseconds, more when
 * the process was idle). `noFollow`: a symlink at the path is refused (ELOOP) rather than followed.
 */
export function readSmallFile(path: string, noFollow = false): Buffer | null {
  const fd = openSync(path, constants.O_RDONLY | (noFollow ? constants.O_NOFOLLOW : 0));
  try {
    const { size } = fstatSync(fd);
    if (size > SMALL_FILE_BYTES) return null;
    // One byte more than the size: a file that grew since fstat is read to its end below.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.max(size - total, 0) + 1);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > SMALL_FILE_BYTES) return null;
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** The entry at `path` itself (a symlink is not followed), or null when there is none or it cannot be read. */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
