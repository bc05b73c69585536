import { describe, expect, it } from 'vitest';
import { inputText } from './tool-input.js';

describe('inputText', () => {
  it('reads a left-out field as empty text and a number as its digits', () => {
    expect(inputText(undefined)).toBe('');
    expect(inputText(null)).toBe('');
    expect(inputText('notes.md')).toBe('notes.md');
    expect(inputText(42)).toBe('42');
    expect(inputText(false)).toBe('false');
  });

  it('reads an object the model sent as its JSON, not "[object Object]"', () => {
    expect(inputText({ line: 'one' })).toBe('{"line":"one"}');
    expect(inputText(['a', 'b'])).toBe('["a","b"]');
  });
});
