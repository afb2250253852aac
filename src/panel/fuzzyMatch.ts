/**
 * Fuzzy file matching for `@` mentions: the query's characters must appear in order in the path; matches in the
 * file name, at the start of a path segment or word, and in runs score higher. One pass per candidate over
 * precomputed lower-case paths keeps 50,000 files well under a frame.
 */

export interface Candidate {
  /** Workspace-relative path with forward slashes. */
  readonly label: string;
  readonly lower: string;
  /** Where the file name starts in `label`. */
  readonly nameStart: number;
}

export function candidate(label: string): Candidate {
  return { label, lower: label.toLowerCase(), nameStart: label.lastIndexOf('/') + 1 };
}

/** Score of `query` (lower case, no spaces) against `c`; -1 when it does not match. */
export function score(query: string, c: Candidate): number {
  if (query === '') return 0;
  // Prefer a match inside the file name alone: that is what people type.
  const inName = subsequenceScore(query, c.lower, c.nameStart);
  if (inName >= 0) return 1_000 + inName - c.label.length * 0.01;
  const inPath = subsequenceScore(query, c.lower, 0);
  return inPath >= 0 ? inPath - c.label.length * 0.01 : -1;
}

function subsequenceScore(query: string, text: string, from: number): number {
  let total = 0;
  let run = 0;
  let pos = from;
  for (let qi = 0; qi < query.length; qi++) {
    const found = text.indexOf(query[qi], pos);
    if (found < 0) return -1;
    if (found === pos && qi > 0) run++;
    else run = 0;
    total += 1 + run * 2 + (isWordStart(text, found) ? 3 : 0);
    pos = found + 1;
  }
  return total;
}

function isWordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const before = text[i - 1];
  return before === '/' || before === '.' || before === '-' || before === '_' || before === ' ';
}

/** The best `limit` matches, best first; with an empty query, the shortest paths. */
export function search(query: string, candidates: readonly Candidate[], limit = 50): Candidate[] {
  const q = query.toLowerCase().replace(/\s+/g, '');
  const best: { c: Candidate; s: number }[] = [];
  let floor = -Infinity;
  for (const c of candidates) {
    const s = q === '' ? -c.label.length : score(q, c);
    if (s < 0 && q !== '') continue;
    if (best.length >= limit && s <= floor) continue;
    best.push({ c, s });
    if (best.length > limit * 4) {
      // Keep the working set small: sort, cut, and raise the floor.
      best.sort(compare);
      best.length = limit;
      floor = best[best.length - 1].s;
    }
  }
  best.sort(compare);
  return best.slice(0, limit).map((b) => b.c);
}

function compare(a: { c: Candidate; s: number }, b: { c: Candidate; s: number }): number {
  return b.s - a.s || (a.c.label < b.c.label ? -1 : a.c.label > b.c.label ? 1 : 0);
}
