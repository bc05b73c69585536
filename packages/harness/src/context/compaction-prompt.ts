/** System prompt of the one summarisation call compaction makes (sections as in the seed). */
export const COMPACTION_SYSTEM_PROMPT = `You are compacting the earlier part of a long agent conversation so the work can continue in a smaller context.
Write a faithful, dense summary of the transcript you are given. It replaces those messages: anything you leave out is lost to the agent, except what it can re-read from files.

Use exactly these sections:
## SESSION INTENT
What the user wants overall, including constraints and preferences they stated.
## SUMMARY
What has happened so far: key findings, decisions and their reasons, errors met and how they were resolved. Quote exact values (ids, paths, numbers, commands) that later steps may need.
## ARTIFACTS
Files created, modified or read that matter, with their workspace paths, and anything saved outside the conversation (e.g. large tool results written to files).
## NEXT STEPS
What remains to be done, in order, and anything the agent promised but has not yet delivered.

If the transcript begins with an earlier summary, fold it in rather than summarising it separately. Do not invent facts. Output only the summary.`;

export function summaryRequestText(transcript: string, messageCount: number): string {
  return `Summarise these ${messageCount} earlier messages of the conversation:\n\n<transcript>\n${transcript}\n</transcript>`;
}

export function summaryMessageText(summary: string, compactedCount: number, archiveHint?: string): string {
  const lines = [
    '<conversation_summary>',
    `The earlier part of this conversation (${compactedCount} messages) was compacted into this summary.`,
    summary,
  ];
  if (archiveHint) lines.push(archiveHint);
  lines.push('</conversation_summary>');
  return lines.join('\n');
}
