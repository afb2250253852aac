import { stripAnsi } from '../../src/shared/textSafety';
import { prose } from '../dom';
import { BlockBoundaryScanner } from '../../src/shared/blockBoundary';
import type { BlockVirtualizer } from './blockVirtualizer';
import { deadline, FRAME_BUDGET_MS } from './frameBudget';
import { createMarkdown, type Markdown } from './markdownIt';

/**
 * Characters of completed Markdown per kept group of blocks: the unit the virtualiser (blockVirtualizer.ts) replaces
 * by a placeholder far from the viewport and renders again near it. Small enough that rendering one again is a few
 * milliseconds, large enough that a 10 MiB answer is about a thousand of them.
 */
const GROUP_SIZE = 8 * 1024;
/**
 * An open block longer than this (a huge code block still streaming, a paragraph that never ends) is shown as plain
 * text while it grows: parsing it again on every frame would cost its whole length each time. It becomes Markdown
 * once it completes, or when the message is settled.
 */
export const OPEN_BLOCK_LIMIT = 32 * 1024;
/** Completed Markdown is rendered in slices of about this many characters (a block longer than that goes whole). */
const SLICE = 4 * 1024;
/**
 * Of the completed Markdown taken in one go, only the last this many characters are rendered as DOM; what comes
 * before goes straight into placeholders holding its text (see blockVirtualizer.ts), rendered when it comes near the
 * viewport. An agent writing 2 MiB a second sends ~35 KB a frame, tens of thousands of pixels of text, of which the
 * reader at the bottom sees the last screen; laying out all of it as rich text is what made frames long (the page's
 * main-thread time was mostly layout). A screen holds ~2–3 KB of text.
 */
const RICH_TAIL = 4 * 1024;
/** Text placeholders are filled this many characters at a time (the frame's time budget is checked between). */
const TEXT_SLICE = 8 * 1024;
/** Characters per element of plain text: appending lays out only the last one. */
const PLAIN_PIECE = 4 * 1024;

let shared: Markdown | undefined;
export function markdown(): Markdown {
  return (shared ??= createMarkdown());
}

/**
 * Markdown that goes through most of the renderer's rules: headings, emphasis, code, links, lists, a quote, a fenced
 * block, a table. A fresh page paid for markdown-it's setup, the first compilation of its rules and the first layout
 * of its output in the first frames of the first answer: 10–24 ms (median 14) to render and lay out a 50-character
 * first patch in a fresh page, 3–7 ms after the warm-up (page only, 6 pages each).
 */
const WARM_UP = '# Title\n\nSome **bold**, *emphasis*, `code` and a [link](https://example.com/) in a paragraph: https://example.com/\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n```ts\nconst x = 1;\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n';

/**
 * Renders a sample and lays it out, unseen, inside `into` (where answers go, so the same style rules apply), then
 * lets it go: call in the page's idle time, before an answer needs the renderer.
 */
export function warmUp(into: HTMLElement): void {
  const probe = document.createElement('div');
  probe.className = 'md';
  probe.style.cssText = 'position: absolute; visibility: hidden; left: 0; top: 0; width: 100%';
  probe.append(renderMarkdown(WARM_UP));
  into.append(probe);
  void probe.offsetHeight;
  probe.remove();
}

/** Renders Markdown (sanitised as in markdownIt.ts) into a fragment. */
export function renderMarkdown(text: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = markdown().render(stripAnsi(text));
  return template.content;
}

/**
 * A message that grows chunk by chunk. Completed blocks (up to the last safe cut, see blockBoundary.ts) are rendered
 * once and kept as DOM; only the open block at the end is parsed again when text arrives. So the cost of a chunk is
 * the size of the open block, not of the message. The message's whole text is never held here as one string: text
 * arrives as deltas (`append`), only the part not rendered yet is kept (`pending`), and each completed group keeps
 * its own slice (to be rendered again by the virtualiser). Reading a string built by appending copies all of it, and
 * a 10 MiB answer copied every frame is what made frames slow as the answer grew.
 */
export class StreamingMarkdown {
  readonly element: HTMLElement;
  private readonly tail: HTMLElement;
  private scanner = new BlockBoundaryScanner();
  /** Text after the rendered blocks (the open block and any backlog); the scanner's positions are in it. */
  private pending = '';
  /** Total characters (rendered + pending). */
  private total = 0;
  /** The last whole text given to `setText`, while no delta has been appended since (a cheap identity check). */
  private source: string | undefined = '';
  /** The Markdown of each finished group, in order (with `groupSlices` and `pending`, the whole text). */
  private readonly groupTexts: string[] = [];
  private tailText: string | undefined;
  private group: HTMLElement | undefined;
  private groupSlices: string[] = [];
  private groupSize = 0;
  private groupAsText = false;
  /** A text group's estimated rendered height (px). */
  private groupEstimate = 0;
  /** The message is complete: the open block is Markdown, however long, and the last group is final. */
  private settled = false;
  /** Characters of the open block shown as plain text (plain mode), in `plain`'s pieces. */
  private plainShown = 0;
  private plain: HTMLElement | undefined;
  private piece: HTMLElement | undefined;
  private pieceSize = 0;

  constructor(
    className = 'md',
    private readonly virtualizer?: BlockVirtualizer,
  ) {
    this.element = document.createElement('div');
    this.element.className = className;
    this.tail = document.createElement('div');
    this.tail.className = 'md-open-block';
    this.element.append(this.tail);
  }

  /**
   * Shows `text` at once (a snapshot, a folded body opened): an extension of the text shown is rendered as appended,
   * anything else starts over.
   */
  setText(text: string): void {
    if (text === this.source) return;
    const shown = this.source ?? this.groupTexts.join('') + this.groupSlices.join('') + this.pending;
    if (text === shown) {
      this.source = text;
      return;
    }
    if (!(text.length > shown.length && text.startsWith(shown))) this.clear();
    this.add(text.slice(this.total), Infinity);
    this.source = text;
  }

  /**
   * Another text from now on (a flood's newest text, replaced by a later flood's): rendered within the frame's budget
   * like an append, the rest by `drain`.
   */
  replace(text: string): void {
    this.clear();
    this.append(text);
  }

  /** The text grew by `delta` (a streaming patch): rendered within the frame's budget, the rest by `drain`. */
  append(delta: string): void {
    this.add(delta, FRAME_BUDGET_MS);
  }

  private add(delta: string, budgetMs: number): void {
    if (delta === '') return;
    this.source = undefined;
    this.pending += delta;
    this.total += delta.length;
    this.advance(budgetMs);
  }

  /** Characters of text held (rendered and pending). */
  get length(): number {
    return this.total;
  }

  /**
   * The text's first `max` characters (at most), from the pieces it is kept in. The page's copy of a streamed answer
   * is one string built by appending, and reading any part of such a string copies all of it: 40 ms for the first
   * words of a 10 MiB answer, in the frame that ends the turn.
   */
  head(max: number): string {
    let out = '';
    for (const piece of this.groupTexts) {
      if (out.length >= max) return out;
      out += piece.slice(0, max - out.length);
    }
    for (const piece of this.groupSlices) {
      if (out.length >= max) return out;
      out += piece.slice(0, max - out.length);
    }
    return out.length >= max ? out : out + this.pending.slice(0, max - out.length);
  }

  /** Completed blocks wait to be rendered (more than a frame's budget): call `drain` on the next frame. */
  get backlog(): boolean {
    return this.scanner.scan(this.pending) > 0 || (this.settled && this.tailText !== this.pending);
  }

  /** Renders the next frame's share of the backlog. */
  drain(): void {
    this.advance(FRAME_BUDGET_MS);
  }

  /** Live = more text may come; not live = complete: the open block is rendered as Markdown (a frame's share at a time). */
  setLive(live: boolean): void {
    if (this.settled === !live) return;
    this.settled = !live;
    if (this.settled) this.advance(FRAME_BUDGET_MS);
  }

  private advance(budgetMs: number): void {
    const end = deadline(budgetMs);
    let last = this.scanner.scan(this.pending);
    // (one slice at least, however little the frame has left: every frame makes progress)
    while (last > 0) {
      const asText = this.virtualizer?.enabled === true && last > RICH_TAIL;
      const cut = this.scanner.cutWithin(0, asText ? Math.min(TEXT_SLICE, last - RICH_TAIL) : SLICE);
      this.commit(cut, asText);
      last -= cut;
      if (performance.now() >= end) break;
    }
    if (last > 0) {
      // blocks are still waiting: the open block is shown once they are (a frame or two later)
      if (this.tailText !== '') this.emptyTail();
      return;
    }
    const open = this.pending;
    if (open.length > OPEN_BLOCK_LIMIT && !this.settled) return this.showPlain();
    if (open !== this.tailText) {
      if (this.plain) this.emptyTail();
      this.tailText = open;
      this.tail.replaceChildren(renderMarkdown(open));
    }
  }

  /**
   * Renders the pending text up to `cut` (a safe cut) into the current group and drops it from `pending`; `asText`:
   * as the text of a placeholder (the rendered blocks' text, without their layout).
   */
  private commit(cut: number, asText: boolean): void {
    // Completed blocks go into a group until it holds GROUP_SIZE characters; a full group is final and handed to the
    // virtualiser, which may replace it by a placeholder once it is far from the viewport (or render a text group
    // once it comes near). A group is all rendered blocks or all text.
    if (!this.group || this.groupSize >= GROUP_SIZE || this.groupAsText !== asText) {
      this.finishGroup();
      this.group = document.createElement('div');
      this.group.className = asText ? 'md-blocks md-placeholder md-unmeasured' : 'md-blocks';
      this.groupAsText = asText;
      this.groupSize = 0;
      this.groupEstimate = 0;
      this.tail.before(this.group);
    }
    const slice = this.pending.slice(0, cut);
    if (!asText) this.group.append(renderMarkdown(slice));
    else {
      // One text node per group (find's matches are mapped back by offset in it): no layout, no elements. While the
      // answer streams it is the Markdown source itself: parsing it here cost more than the frames had, and the
      // reader at the end sees none of it. The virtualiser turns it into the rendered text when the page is idle.
      const text = stripAnsi(slice);
      const node = this.group.firstChild;
      if (node instanceof Text) node.appendData(text);
      else this.group.append(text);
      // skipped by content-visibility until seen, it takes the size of its text as an estimate (see chat.css)
      this.groupEstimate += estimatedHeight(text);
      this.group.style.containIntrinsicSize = `auto ${Math.round(this.groupEstimate)}px`;
    }
    this.groupSlices.push(slice);
    this.groupSize += cut;
    this.pending = this.pending.slice(cut);
    this.scanner.rebase(cut);
    if (this.plain) {
      // the plain text was (part of) what was just committed
      this.emptyTail();
    }
  }

  private finishGroup(): void {
    const group = this.group;
    if (!group) return;
    group.classList.add('md-blocks-done');
    // (joined into a string of its own: the slices would keep alive the larger texts they were cut from)
    const text = this.groupSlices.join('');
    this.groupSlices = [];
    this.groupTexts.push(text);
    this.virtualizer?.add(group, text, () => renderMarkdown(text), this.groupAsText ? 'source' : 'rendered');
  }

  /**
   * Appends the open block's new text as plain text (hidden and control characters shown, as in prose), in pieces of
   * about PLAIN_PIECE characters: appending lays out only the last piece, not the whole block.
   */
  private showPlain(): void {
    const text = this.pending;
    if (!this.plain) {
      this.plain = document.createElement('div');
      this.plain.className = 'md-plain';
      this.tail.replaceChildren(this.plain);
      this.tailText = undefined;
      this.piece = undefined;
    }
    let at = this.plainShown;
    while (at < text.length) {
      // (a piece with room for less than two units is full: a surrogate pair must fit whole)
      if (!this.piece || this.pieceSize >= PLAIN_PIECE - 1) {
        this.piece = document.createElement('div');
        this.pieceSize = 0;
        this.plain.append(this.piece);
      }
      let end = Math.min(text.length, at + PLAIN_PIECE - this.pieceSize);
      // never between the halves of a surrogate pair: each piece is its own text
      if (end < text.length && end - at > 1 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      this.piece.append(prose(stripAnsi(text.slice(at, end))));
      this.pieceSize += end - at;
      at = end;
    }
    this.plainShown = text.length;
  }

  /** Nothing in the open block's place (plain mode left too); `tailText` '' says so, so an empty open block skips. */
  private emptyTail(): void {
    this.plain = this.piece = undefined;
    this.plainShown = 0;
    this.tail.replaceChildren();
    this.tailText = '';
  }

  /**
   * Takes over `other`'s text, rendered blocks and open block as they are, after this text: a flood's newest text
   * joining its answer once the gap before it has filled (floodGap.ts). `other` starts where a block starts (the host
   * cuts a flood there), so what this still holds of its last block is complete. Nothing is parsed or rendered again:
   * appending the text instead would scan all of it (megabytes, after a long flood) in one frame and commit it over the
   * next ones, the answer's end missing from the page meanwhile. `other` is left empty.
   */
  adopt(other: StreamingMarkdown): void {
    // (committed whole: no cut to find, and this scanner goes with it)
    if (this.pending !== '') this.commit(this.pending.length, this.virtualizer?.enabled === true);
    this.finishGroup();
    this.emptyTail();
    for (const child of [...other.element.children]) if (child !== other.tail) this.tail.before(child);
    this.tail.replaceChildren(...other.tail.childNodes);
    this.groupTexts.push(...other.groupTexts);
    ({ group: this.group, groupSlices: this.groupSlices, groupSize: this.groupSize, groupAsText: this.groupAsText, groupEstimate: this.groupEstimate } = other);
    ({ pending: this.pending, scanner: this.scanner, tailText: this.tailText, plain: this.plain, piece: this.piece, pieceSize: this.pieceSize, plainShown: this.plainShown } = other);
    this.total += other.total;
    this.source = undefined;
    // (a scanner of its own: clearing it would reset the one this took over)
    other.scanner = new BlockBoundaryScanner();
    other.clear();
  }

  /** The message is gone from the page (or this part of it): the virtualiser lets go of its groups. */
  release(): void {
    for (const child of this.element.children) if (child !== this.tail) this.virtualizer?.remove(child as HTMLElement);
  }

  private clear(): void {
    this.scanner.reset();
    this.release();
    this.pending = '';
    this.total = 0;
    this.source = '';
    this.groupTexts.length = 0;
    this.group = undefined;
    this.groupSlices = [];
    this.emptyTail();
    this.element.replaceChildren(this.tail);
  }
}

/** Characters per line and line height (px) of a narrow chat panel: an estimate, corrected once the text is seen. */
const ESTIMATE_CHARS_PER_LINE = 60;
const ESTIMATE_LINE_PX = 19;

/** The height (px) of `chars` characters of Markdown not at hand, roughly: lines of a narrow panel's width. */
export function estimatedHeightOf(chars: number): number {
  return Math.ceil(chars / ESTIMATE_CHARS_PER_LINE) * ESTIMATE_LINE_PX;
}

/** The height `text` would take as rendered Markdown, roughly: its lines, wrapped at a panel's width. */
function estimatedHeight(text: string): number {
  let lines = 0;
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    lines += Math.max(1, Math.ceil((end - start) / ESTIMATE_CHARS_PER_LINE));
    start = end + 1;
  }
  return lines * ESTIMATE_LINE_PX;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
