import { diffArrays } from 'diff';

/**
 * Line hunks between a baseline and the current text, and the two moves a review makes on them: accept folds the
 * current region into the baseline, reject puts the baseline region back into the current text. Lines keep their
 * terminators, so `\r\n` vs `\n` and a missing final newline are differences like any other and a full reject is
 * byte-exact at the text level. Stateless: hunks are recomputed from the two texts after every move. Plain Node.
 */

/** Half-open line ranges: baseline lines [baseStart, baseEnd) became current lines [curStart, curEnd). */
export interface Hunk {
  readonly baseStart: number;
  readonly baseEnd: number;
  readonly curStart: number;
  readonly curEnd: number;
}

/** Splits after each `\n`, keeping it (and a `\r` before it). The last line may have no terminator. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    lines.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * The hunks, in order. Common head and tail are trimmed, then lines that occur exactly once on each side anchor the
 * alignment (their longest increasing run, as in patience diff), and only the gaps between anchors go through the
 * `diff` package's Myers diff. Scattered edits in a long file thus cost little more than reading it.
 */
export function computeHunks(base: readonly string[], cur: readonly string[]): Hunk[] {
  let head = 0;
  const min = Math.min(base.length, cur.length);
  while (head < min && base[head] === cur[head]) head++;
  let tail = 0;
  while (tail < min - head && base[base.length - 1 - tail] === cur[cur.length - 1 - tail]) tail++;
  const out: Hunk[] = [];
  diffRange(base, cur, head, base.length - tail, head, cur.length - tail, out, 0);
  return out;
}

const MAX_DEPTH = 4;

function diffRange(base: readonly string[], cur: readonly string[], b0: number, b1: number, c0: number, c1: number, out: Hunk[], depth: number): void {
  if (b0 === b1 && c0 === c1) return;
  if (b0 === b1 || c0 === c1) {
    out.push({ baseStart: b0, baseEnd: b1, curStart: c0, curEnd: c1 });
    return;
  }
  const anchors = depth < MAX_DEPTH && b1 - b0 > 64 ? uniqueAnchors(base, cur, b0, b1, c0, c1) : [];
  if (anchors.length === 0) {
    myers(base, cur, b0, b1, c0, c1, out);
    return;
  }
  let pb = b0;
  let pc = c0;
  for (const [ab, ac] of anchors) {
    // Already inside the equal run grown from the previous anchor (a unique line can only match itself there).
    if (ab < pb || ac < pc) continue;
    // Grow the anchor over equal neighbours so the gaps handed on are as small as they can be.
    let sb = ab;
    let sc = ac;
    while (sb > pb && sc > pc && base[sb - 1] === cur[sc - 1]) {
      sb--;
      sc--;
    }
    diffRange(base, cur, pb, sb, pc, sc, out, depth + 1);
    pb = ab + 1;
    pc = ac + 1;
    while (pb < b1 && pc < c1 && base[pb] === cur[pc]) {
      pb++;
      pc++;
    }
  }
  diffRange(base, cur, pb, b1, pc, c1, out, depth + 1);
}

/** Pairs (i, j) of lines unique in both ranges and equal, reduced to their longest run increasing on both sides. */
function uniqueAnchors(base: readonly string[], cur: readonly string[], b0: number, b1: number, c0: number, c1: number): [number, number][] {
  const seen = new Map<string, { b: number; c: number; nb: number; nc: number }>();
  for (let i = b0; i < b1; i++) {
    const e = seen.get(base[i]);
    if (e) e.nb++;
    else seen.set(base[i], { b: i, c: -1, nb: 1, nc: 0 });
  }
  for (let j = c0; j < c1; j++) {
    const e = seen.get(cur[j]);
    if (!e) continue;
    e.nc++;
    e.c = j;
  }
  const pairs: [number, number][] = [];
  for (const e of seen.values()) if (e.nb === 1 && e.nc === 1) pairs.push([e.b, e.c]);
  if (pairs.length === 0) return [];
  pairs.sort((x, y) => x[0] - y[0]);
  return longestIncreasing(pairs);
}

/** Longest subsequence increasing in the second coordinate (patience sorting, O(n log n)). */
function longestIncreasing(pairs: [number, number][]): [number, number][] {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let i = 0; i < pairs.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < pairs[i][1]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const result: [number, number][] = [];
  for (let k = tails.length ? tails[tails.length - 1] : -1; k >= 0; k = prev[k]) result.push(pairs[k]);
  return result.reverse();
}

function myers(base: readonly string[], cur: readonly string[], b0: number, b1: number, c0: number, c1: number, out: Hunk[]): void {
  const changes = diffArrays(base.slice(b0, b1), cur.slice(c0, c1));
  let b = b0;
  let c = c0;
  let open: { baseStart: number; curStart: number } | undefined;
  const close = () => {
    if (open) out.push({ baseStart: open.baseStart, baseEnd: b, curStart: open.curStart, curEnd: c });
    open = undefined;
  };
  for (const change of changes) {
    const n = change.count ?? change.value.length;
    if (!change.added && !change.removed) {
      close();
      b += n;
      c += n;
      continue;
    }
    open ??= { baseStart: b, curStart: c };
    if (change.removed) b += n;
    else c += n;
  }
  close();
}

/** Lines added and removed over all hunks. */
export function countChanges(hunks: readonly Hunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    added += h.curEnd - h.curStart;
    removed += h.baseEnd - h.baseStart;
  }
  return { added, removed };
}

/** Accept: the baseline takes the current text of the hunk's region. Returns the new baseline lines. */
export function acceptHunk(base: readonly string[], cur: readonly string[], hunk: Hunk): string[] {
  return [...base.slice(0, hunk.baseStart), ...cur.slice(hunk.curStart, hunk.curEnd), ...base.slice(hunk.baseEnd)];
}

/** Reject: the current text takes the baseline's text of the hunk's region. Returns the new current lines. */
export function rejectHunk(base: readonly string[], cur: readonly string[], hunk: Hunk): string[] {
  return [...cur.slice(0, hunk.curStart), ...base.slice(hunk.baseStart, hunk.baseEnd), ...cur.slice(hunk.curEnd)];
}

/** The same reject as a text edit on the current text: replace [start, end) (UTF-16 offsets) with `text`. */
export function rejectEdit(base: readonly string[], cur: readonly string[], hunk: Hunk): { start: number; end: number; text: string } {
  const start = offsetOfLine(cur, hunk.curStart);
  const end = start + cur.slice(hunk.curStart, hunk.curEnd).reduce((n, l) => n + l.length, 0);
  return { start, end, text: base.slice(hunk.baseStart, hunk.baseEnd).join('') };
}

/** Minimal edits turning `from` into `to`, as offset ranges on `from`, last first so they can be applied in order. */
export function editsBetween(from: string, to: string): { start: number; end: number; text: string }[] {
  const a = splitLines(from);
  const b = splitLines(to);
  const edits: { start: number; end: number; text: string }[] = [];
  let line = 0;
  let offset = 0;
  for (const h of computeHunks(a, b)) {
    for (; line < h.baseStart; line++) offset += a[line].length;
    const start = offset;
    for (; line < h.baseEnd; line++) offset += a[line].length;
    edits.push({ start, end: offset, text: b.slice(h.curStart, h.curEnd).join('') });
  }
  return edits.reverse();
}

export function offsetOfLine(lines: readonly string[], line: number): number {
  let offset = 0;
  for (let i = 0; i < line && i < lines.length; i++) offset += lines[i].length;
  return offset;
}

/**
 * The hunk a cursor line points at: one whose current lines contain it, or — for a pure deletion, which has no lines
 * on the current side — the one that sits at that line or just below it.
 */
export function hunkAtLine(hunks: readonly Hunk[], line: number): Hunk | undefined {
  return (
    hunks.find((h) => h.curStart <= line && line < h.curEnd) ??
    hunks.find((h) => h.curStart === h.curEnd && (h.curStart === line || h.curStart === line + 1))
  );
}

export function sameHunk(a: Hunk, b: Hunk): boolean {
  return a.baseStart === b.baseStart && a.baseEnd === b.baseEnd && a.curStart === b.curStart && a.curEnd === b.curEnd;
}

/** A hunk as a CodeLens carries it: its ranges when computed, and the lines it replaces and adds. */
export interface HunkRef extends Hunk {
  readonly removed?: readonly string[];
  readonly added?: readonly string[];
}

export function hunkRef(base: readonly string[], cur: readonly string[], h: Hunk): HunkRef {
  return { ...h, removed: base.slice(h.baseStart, h.baseEnd), added: cur.slice(h.curStart, h.curEnd) };
}

/**
 * The hunk a reference points at now, or undefined when that change is gone. A CodeLens is computed before the click
 * and VS Code can show one a refresh late: accepting a hunk above moves the later hunks' baseline lines (their
 * current lines stay), rejecting one moves their current lines (the baseline stays). So a reference with its lines
 * matches the hunk with the same removed and added lines that kept one of its two starts. Never another change: an
 * identical change elsewhere has neither start (there is an unchanged line between hunks), a hunk typed into since
 * has other lines. A reference without its lines (a caller's own ranges) must match exactly.
 */
export function findHunk(hunks: readonly Hunk[], base: readonly string[], cur: readonly string[], ref: HunkRef): Hunk | undefined {
  const exact = hunks.find((h) => sameHunk(h, ref));
  const { removed, added } = ref;
  if (!removed || !added) return exact;
  const same = (h: Hunk) => sameLines(base, h.baseStart, h.baseEnd, removed) && sameLines(cur, h.curStart, h.curEnd, added);
  if (exact) return same(exact) ? exact : undefined;
  return hunks.find((h) => (h.curStart === ref.curStart || h.baseStart === ref.baseStart) && same(h));
}

function sameLines(lines: readonly string[], start: number, end: number, expected: readonly string[]): boolean {
  if (end - start !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (lines[start + i] !== expected[i]) return false;
  return true;
}
