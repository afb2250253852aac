/**
 * Finds where a growing Markdown text can be cut so that everything before the cut renders the same on its own as it
 * does as part of the whole. The streaming renderer renders each such prefix once and keeps it as DOM; only the text
 * after the last cut (the open block) is parsed again per chunk.
 *
 * A cut is placed before a line that follows a blank line, starts in column 0 with a character that cannot continue
 * what came before (not a space: an indented line may continue a list item or an indented code block; not a list
 * marker: it may continue a list, whose numbering and looseness span blank lines), and is outside a fenced code block.
 * Only complete lines are examined. Link reference definitions later in the text cannot reach back into a kept
 * prefix; that is the one known difference from rendering the whole text at once, and agents rarely write them.
 */
export class BlockBoundaryScanner {
  /** Offset of the first line not yet examined. */
  private pos = 0;
  private fence: { char: string; length: number } | undefined;
  private previousBlank = false;
  private lastCut = 0;
  /**
   * Every cut found, in order, from `firstCut` on (earlier ones were passed), as offsets in the text before any
   * `rebase`: `shift` (the characters dropped since) is subtracted when one is read, so a rebase moves no cut.
   */
  private cuts: number[] = [];
  private firstCut = 0;
  private shift = 0;

  /** The last safe cut within `text` (which must extend the text of earlier calls); 0 when there is none. */
  scan(text: string): number {
    for (let end = text.indexOf('\n', this.pos); end >= 0; end = text.indexOf('\n', this.pos)) {
      this.line(text, this.pos, end);
      this.pos = end + 1;
    }
    return this.lastCut;
  }

  /**
   * The furthest cut after `from` that is at most `limit`, or else the first cut after `from` (a block longer than
   * the limit still goes whole); `from` when there is none. Lets a renderer take a long backlog a frame at a time.
   */
  cutWithin(from: number, limit: number): number {
    this.pass(from);
    let best = from;
    for (let i = this.firstCut; i < this.cuts.length; i++) {
      const cut = this.cuts[i] - this.shift;
      if (cut > limit) return best === from ? cut : best;
      best = cut;
    }
    return best;
  }

  /**
   * The caller dropped the first `n` characters of its text (a prefix up to a cut it has rendered): positions are
   * from then on in the shorter text. Lets a streaming renderer keep only the text it has not rendered yet.
   */
  rebase(n: number): void {
    if (n <= 0) return;
    this.pos -= n;
    this.lastCut = Math.max(0, this.lastCut - n);
    this.shift += n;
    this.pass(0);
  }

  /** Cuts at or before `from` (in the current text) are passed; the array is compacted now and then, not per call. */
  private pass(from: number): void {
    while (this.firstCut < this.cuts.length && this.cuts[this.firstCut] - this.shift <= from) this.firstCut++;
    if (this.firstCut > 1024) {
      this.cuts = this.cuts.slice(this.firstCut);
      this.firstCut = 0;
    }
  }

  reset(): void {
    this.pos = 0;
    this.fence = undefined;
    this.previousBlank = false;
    this.lastCut = 0;
    this.cuts = [];
    this.firstCut = 0;
    this.shift = 0;
  }

  private line(text: string, start: number, end: number): void {
    const first = text.charCodeAt(start);
    const blank = isBlank(text, start, end);
    const fence = fenceAt(text, start, end);
    if (this.fence) {
      if (fence && fence.char === this.fence.char && fence.length >= this.fence.length && fence.closingOnly) this.fence = undefined;
      this.previousBlank = false;
      return;
    }
    if (this.previousBlank && !blank && first !== SPACE && first !== TAB && !isListMarker(text, start, end)) {
      this.lastCut = start;
      this.cuts.push(start + this.shift);
    }
    if (fence) this.fence = { char: fence.char, length: fence.length };
    this.previousBlank = blank;
  }
}

const SPACE = 0x20;
const TAB = 0x09;

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== 0x0d) return false;
  }
  return true;
}

/** A fence line: up to three spaces, then three or more backticks or tildes. */
function fenceAt(text: string, start: number, end: number): { char: string; length: number; closingOnly: boolean } | undefined {
  let i = start;
  while (i < end && i - start < 3 && text.charCodeAt(i) === SPACE) i++;
  const char = text[i];
  if (char !== '`' && char !== '~') return undefined;
  let j = i;
  while (j < end && text[j] === char) j++;
  const length = j - i;
  if (length < 3) return undefined;
  const rest = text.slice(j, end);
  // A backtick fence's info string may not contain backticks (that is inline code instead).
  if (char === '`' && rest.includes('`')) return undefined;
  return { char, length, closingOnly: rest.trim() === '' };
}

function isListMarker(text: string, start: number, end: number): boolean {
  const c = text[start];
  const next = start + 1 < end ? text[start + 1] : '';
  if ((c === '-' || c === '*' || c === '+') && (next === ' ' || next === '\t' || start + 1 === end || next === '\r')) return true;
  let i = start;
  while (i < end && i - start < 9 && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
  if (i === start || i >= end) return false;
  return (text[i] === '.' || text[i] === ')') && (i + 1 === end || text[i + 1] === ' ' || text[i + 1] === '\t' || text[i + 1] === '\r');
}
