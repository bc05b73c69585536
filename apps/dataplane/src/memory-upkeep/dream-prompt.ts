import type { ChatMessage } from '@agentry/harness';

export interface DreamMemory {
  path: string;
  content: string;
}

/** What the model is told a dream is for; the reply format is the one `parseDreamReply` reads. */
const DREAM_SYSTEM_PROMPT = `You reorganize an agent's memory store. You are given its memories (and, when
present, transcripts of past sessions). Merge duplicates, drop what is stale or contradicted, keep every fact
that still matters, and group related facts into well-named files.

Answer with the complete new memory store and nothing else, one block per memory:
<memory path="/some/file.md">
content
</memory>
A memory you leave out is deleted. Paths start with "/".`;

/** Whole sessions are long: each transcript is cut to this many characters, newest kept. */
const TRANSCRIPT_MAX_CHARS = 20_000;

const MEMORY_BLOCK = /<memory path="(\/[^"\n]*)">\n?([\s\S]*?)\n?<\/memory>/g;

/**
 * The dream's one model request. The current memories are shown in `<current_memory>` blocks, a tag the
 * reply does not use, so a reply that only repeats its input changes nothing.
 */
export function dreamMessages(
  memories: DreamMemory[],
  transcripts: Array<{ sessionId: string; text: string }>,
  instructions: string | null,
): ChatMessage[] {
  const current = memories.length
    ? memories.map((m) => `<current_memory path="${m.path}">\n${m.content}\n</current_memory>`).join('\n')
    : '(the store is empty)';
  const sessions = transcripts.map(
    (t) => `<session id="${t.sessionId}">\n${t.text.slice(-TRANSCRIPT_MAX_CHARS)}\n</session>`,
  );
  const text = [
    `Current memories:\n${current}`,
    ...(sessions.length ? [`Past sessions:\n${sessions.join('\n')}`] : []),
    ...(instructions ? [`Instructions:\n${instructions}`] : []),
  ].join('\n\n');
  return [
    { role: 'system', content: DREAM_SYSTEM_PROMPT },
    { role: 'user', content: [{ type: 'text', text }] },
  ];
}

/** The memory store a reply describes, or null when it holds no memory block (nothing usable). */
export function parseDreamReply(reply: string): DreamMemory[] | null {
  const byPath = new Map<string, string>();
  for (const match of reply.matchAll(MEMORY_BLOCK)) byPath.set(match[1]!, match[2]!);
  if (byPath.size === 0) return null;
  return [...byPath].map(([path, content]) => ({ path, content }));
}
