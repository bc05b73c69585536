/** Most a stdio server may write without a newline before its output is cut off (a broken server). */
const MAX_LINE_CHARS = 8 * 1024 * 1024;

/** Splits a stream into newline-terminated lines (stdio MCP's framing), keeping an unfinished last line. */
export class StdoutLines {
  private pending = '';

  push(chunk: Buffer): string[] {
    this.pending += chunk.toString('utf8');
    const parts = this.pending.split('\n');
    this.pending = parts.pop() ?? '';
    if (this.pending.length > MAX_LINE_CHARS) this.pending = '';
    return parts.map((line) => line.replace(/\r$/, '')).filter((line) => line.trim() !== '');
  }
}
