import { describe, expect, it } from 'vitest';
import { dreamMessages, parseDreamReply } from './dream-prompt.js';

describe('dream reply', () => {
  it('reads each memory block, the last block of a path winning', () => {
    const reply = [
      'Here is the store:',
      '<memory path="/profile.md">\nName: Ada\nLikes: tea\n</memory>',
      '<memory path="/todo.md">first</memory>',
      '<memory path="/todo.md">\nsecond\n</memory>',
    ].join('\n');
    expect(parseDreamReply(reply)).toEqual([
      { path: '/profile.md', content: 'Name: Ada\nLikes: tea' },
      { path: '/todo.md', content: 'second' },
    ]);
  });

  it('is null when the reply holds no memory block, so the dream fails instead of emptying the store', () => {
    expect(parseDreamReply('I could not do that.')).toBeNull();
  });

  it('shows the current memories in a tag the reply does not use, so an echo changes nothing', () => {
    const messages = dreamMessages([{ path: '/a.md', content: 'alpha' }], [], null);
    const echoed = JSON.stringify(messages);
    expect(echoed).toContain('<current_memory path=\\"/a.md\\">');
    const user = messages[1]!;
    const text = typeof user.content === 'string' ? user.content : JSON.stringify(user.content);
    expect(parseDreamReply(text)).toBeNull();
  });
});
