import type {
  ReplayComparison,
  ReplaySummary,
  ReplayTurn,
  ReplayTurnSide,
  ReplayVerdict,
} from '@agentry/contracts';
import { canonicalJson } from './recorded-answers.js';
import { sideOf, textOf, type RecordedTurn } from './recorded-turns.js';

/**
 * Turn by turn, the original against the replay. A replayed turn is `failed` when it did not end with
 * `end_turn` or recorded a `session.error` (or never ran); else `same` when its final agent text and its
 * tool calls (names and inputs, in order) equal the original's; else `changed`.
 */
export function compareTurns(original: RecordedTurn[], replayed: RecordedTurn[]): ReplayComparison {
  const turns: ReplayTurn[] = original.map((turn, i) => {
    const originalSide = sideOf(turn);
    const replayTurn = replayed[i];
    const replaySide = replayTurn ? sideOf(replayTurn) : null;
    return {
      index: i + 1,
      user_message: textOf(turn.message.event),
      original: originalSide,
      replay: replaySide,
      verdict: verdictOf(originalSide, replaySide),
    };
  });
  return { turns, summary: summarize(turns.map((t) => t.verdict)) };
}

function verdictOf(original: ReplayTurnSide, replay: ReplayTurnSide | null): ReplayVerdict {
  if (!replay || replay.stop_reason !== 'end_turn' || replay.errors.length > 0) return 'failed';
  const same =
    original.final_message === replay.final_message &&
    canonicalJson(original.tool_calls) === canonicalJson(replay.tool_calls);
  return same ? 'same' : 'changed';
}

export function summarize(verdicts: ReplayVerdict[]): ReplaySummary {
  const count = (v: ReplayVerdict) => verdicts.filter((x) => x === v).length;
  return { turns: verdicts.length, same: count('same'), changed: count('changed'), failed: count('failed') };
}
