import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { WorkspaceErrors } from './workspace-errors.js';

describe('WorkspaceErrors.notFound', () => {
  it('is a typed NOT_FOUND built without capturing a stack', () => {
    const error = WorkspaceErrors.notFound('notes/a.md');
    expect(AppError.is(error, 'NOT_FOUND')).toBe(true);
    expect(error.message).toBe('No such file or directory: notes/a.md');
    expect(error.stack).not.toMatch(/\n\s+at /);
  });

  it('leaves every other error its stack', () => {
    WorkspaceErrors.notFound('x');
    expect(WorkspaceErrors.exists('x').stack).toMatch(/\n\s+at /);
    expect(new Error('plain').stack).toMatch(/\n\s+at /);
  });
});
