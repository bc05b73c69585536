import type { ModelPort, ModelRequest } from '../model/model-port.js';

/**
 * Runs one model call and returns its text. The final `done` message is authoritative; the deltas are
 * only a fallback for adapters that end a stream without one.
 */
export async function completeText(
  model: ModelPort,
  request: ModelRequest,
  signal?: AbortSignal,
): Promise<string> {
  let streamed = '';
  let final: string | undefined;
  for await (const event of model.stream(request, signal)) {
    if (event.type === 'text_delta') streamed += event.text;
    else if (event.type === 'done') {
      final = event.message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    }
  }
  return (final ?? streamed).trim();
}
