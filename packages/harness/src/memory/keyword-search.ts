/** One searchable line of a file. */
export interface SearchLine {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

export interface SearchHit extends SearchLine {
  score: number;
}

/** Lower-cased word tokens; each CJK character is its own token since those scripts have no spaces. */
export function tokenize(text: string): string[] {
  return (
    text.toLowerCase().match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}_]+/gu) ?? []
  );
}

/**
 * BM25 ranking of lines against a keyword query (k1 = 1.2, b = 0.75). Lines sharing no term with the
 * query are not returned; ties keep file order.
 */
export function rankLines(lines: readonly SearchLine[], query: string, limit: number): SearchHit[] {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0 || lines.length === 0) return [];
  const docs = lines.map((line) => tokenize(line.text));
  const avgLength = docs.reduce((sum, doc) => sum + doc.length, 0) / docs.length || 1;
  const docFreq = new Map<string, number>();
  for (const doc of docs) for (const term of new Set(doc)) docFreq.set(term, (docFreq.get(term) ?? 0) + 1);
  const hits: SearchHit[] = [];
  docs.forEach((doc, index) => {
    let score = 0;
    for (const term of terms) {
      const tf = doc.filter((token) => token === term).length;
      if (tf === 0) continue;
      const df = docFreq.get(term) ?? 0;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * doc.length) / avgLength));
    }
    if (score > 0) hits.push({ ...(lines[index] as SearchLine), score });
  });
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}
