import { AppError } from '@agentry/contracts';
import { WorkspaceErrors } from '../core/workspace-errors.js';

/** Maps a Node fs error to the workspace's typed error; unknown failures keep their cause. */
export function mapFsError(error: unknown, path: string): AppError {
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return WorkspaceErrors.notFound(path);
    case 'EEXIST':
      return WorkspaceErrors.exists(path);
    case 'EISDIR':
      return WorkspaceErrors.isDirectory(path);
    case 'ENOTDIR':
      return WorkspaceErrors.notDirectory(path);
    case 'ENOTEMPTY':
      return WorkspaceErrors.notEmpty(path);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return WorkspaceErrors.readOnly(path);
    case 'EFBIG':
    case 'ENOSPC':
      return new AppError('PAYLOAD_TOO_LARGE', `No space for ${path}`, { cause: error });
    default:
      return new AppError('INTERNAL', `Filesystem error on ${path}: ${String(error)}`, { cause: error });
  }
}
