import { BlockBoundaryScanner } from '../shared/blockBoundary';
import type { PatchOp } from '../shared/protocol';

/**
 * An answer that floods in: more of its text waits to go to the page than one patch should carry (the window is
 * behind an agent writing megabytes a second). Sent whole, the newest text, the part the reader sees, would reach the
 * page only after everything before it: in the real window a 10 MiB answer's end was on screen 0.3–0.45 s after the
 * agent's last write, nearly all of it the transit of the megabytes ahead of it. Instead the page gets the newest
 * text from a block boundary (RECENT_CHARS, several screens) and how much it skips; the skipped text follows in later
 * patches (`fill`) while the page keeps up, and the page joins the two when the gap closes. A message has one gap: a
 * second flood before it closes moves the newest text the page held into the gap too.
 *
 * Cuts are where the page's own renderer would cut (src/shared/blockBoundary.ts), so the newest text renders on its
 * own as it does in the whole answer; a flood with no such cut (one huge code block) is sent whole. No `vscode`.
 */

/** An append longer than this is a flood. A normal agent's patch holds a few hundred characters. */
export const FLOOD_CHARS = 64 * 1024;
/** What a flood's patch carries: the newest text, from the last block boundary at least this far from its end. */
export const RECENT_CHARS = 16 * 1024;
/** Characters of skipped text per patch, beside what else it carries. */
export const FILL_CHARS = 128 * 1024;

type AppendOp = Extract<PatchOp, { op: 'append' }>;
type FillOp = Extract<PatchOp, { op: 'fill' }>;

interface Gap {
  /** Where the page's own text ends (the gap's start, in the whole text). */
  at: number;
  length: number;
  /** The skipped text, in order. */
  readonly pieces: string[];
}

/** One message's text as the page was sent it: the scanner's view of it, and its gap. */
class SentText {
  private readonly scanner = new BlockBoundaryScanner();
  /** The text from `base` on: what the scanner still needs (from its last cut). */
  private text = '';
  private base = 0;
  gap: Gap | undefined;
  /** The newest text the page holds after the gap, which a second flood moves into it. */
  private newest: string[] = [];

  constructor(sent: string) {
    this.scan(sent);
    this.letGo();
  }

  /** The op that tells the page the text grew from `offset` (what it accounts for) by `delta`. */
  append(index: number, offset: number, delta: string): AppendOp {
    this.scan(delta);
    const end = offset + delta.length;
    const cut = delta.length > FLOOD_CHARS ? this.cutIn(offset, end - RECENT_CHARS) : undefined;
    this.letGo();
    if (cut === undefined) {
      if (this.gap) this.newest.push(delta);
      return { op: 'append', index, offset, delta };
    }
    const skipped = delta.slice(0, cut - offset);
    const newest = delta.slice(cut - offset);
    if (this.gap) this.gap.pieces.push(...this.newest, skipped);
    else this.gap = { at: offset, length: 0, pieces: [skipped] };
    this.gap.length = cut - this.gap.at;
    this.newest = [newest];
    return { op: 'append', index, offset: this.gap.at, delta: newest, skip: this.gap.length };
  }

  /** The gap's next `budget` characters at most, for the page to append to its own text. */
  fill(index: number, budget: number): FillOp | undefined {
    const gap = this.gap;
    if (!gap || budget <= 0) return undefined;
    let delta = '';
    while (gap.pieces.length > 0 && delta.length < budget) {
      const piece = gap.pieces[0];
      const room = budget - delta.length;
      if (piece.length <= room) {
        delta += piece;
        gap.pieces.shift();
      } else {
        delta += piece.slice(0, room);
        gap.pieces[0] = piece.slice(room);
      }
    }
    const op: FillOp = { op: 'fill', index, offset: gap.at, delta };
    gap.at += delta.length;
    gap.length -= delta.length;
    if (gap.length === 0) {
      this.gap = undefined;
      this.newest = [];
    }
    return op;
  }

  private scan(delta: string): void {
    this.text += delta;
    this.scanner.scan(this.text);
  }

  /** Only cuts after the text sent so far are ever asked for: what lies before the last cut is let go. */
  private letGo(): void {
    const last = this.scanner.scan(this.text);
    if (last > 0) {
      this.scanner.rebase(last);
      this.text = this.text.slice(last);
      this.base += last;
    }
  }

  /** The furthest block boundary after `from` and at most `limit` (positions in the whole text), if any. */
  private cutIn(from: number, limit: number): number | undefined {
    if (limit <= from) return undefined;
    const cut = this.scanner.cutWithin(Math.max(0, from - this.base), limit - this.base) + this.base;
    return cut > from && cut <= limit ? cut : undefined;
  }
}

/** The floods of one page's messages: which are skipping text, and the fills that close their gaps. */
export class FloodGaps {
  private readonly texts = new Map<number, SentText>();

  /**
   * The op for agent message `index`, whose text grew from `offset` (what the page accounts for) by `delta`;
   * `whole()` is the message's text, read only the first time (the scanner needs what came before).
   */
  append(index: number, offset: number, delta: string, whole: () => string): AppendOp {
    let text = this.texts.get(index);
    if (!text) {
      text = new SentText(whole().slice(0, offset));
      this.texts.set(index, text);
    }
    return text.append(index, offset, delta);
  }

  /** Fills for the gaps, `budget` characters in all at most, oldest message first. */
  fills(budget: number): FillOp[] {
    const ops: FillOp[] = [];
    for (const [index, text] of this.texts) {
      if (budget <= 0) break;
      const op = text.fill(index, budget);
      if (!op) continue;
      ops.push(op);
      budget -= op.delta.length;
    }
    return ops;
  }

  /** Some message still skips text the page has not been sent. */
  get open(): boolean {
    for (const text of this.texts.values()) if (text.gap) return true;
    return false;
  }

  /** Message `index` was sent whole (an entry op, a snapshot): nothing of it is skipped. */
  forget(index: number): void {
    this.texts.delete(index);
  }

  clear(): void {
    this.texts.clear();
  }
}
