import { stripAnsi } from '../../src/shared/textSafety';
import { prose } from '../dom';
import { BlockBoundaryScanner } from './blockBoundary';
import type { BlockVirtualizer } from './blockVirtualizer';
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
 * Time (ms) spent rendering completed Markdown per frame and message. A burst (a slow frame, a flood of patches, the
 * host's backlog at the end of a turn) is taken this much at a time in the following frames, so no frame parses and
 * lays out a burst at once, and the page keeps up with however fast the agent writes as far as the machine can.
 */
export const FRAME_BUDGET_MS = 8;
/** Characters per element of plain text: appending lays out only the last one. */
const PLAIN_PIECE = 4 * 1024;

let shared: Markdown | undefined;
export function markdown(): Markdown {
  return (shared ??= createMarkdown());
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
  private readonly scanner = new BlockBoundaryScanner();
  /** Text after the rendered blocks (the open block and any backlog); the scanner's positions are in it. */
  private pending = '';
  /** Total characters (rendered + pending). */
  private length = 0;
  /** The last whole text given to `setText`, while no delta has been appended since (a cheap identity check). */
  private source: string | undefined = '';
  /** The Markdown of each finished group, in order (with `groupSlices` and `pending`, the whole text). */
  private readonly groupTexts: string[] = [];
  private tailText: string | undefined;
  private group: HTMLElement | undefined;
  private groupSlices: string[] = [];
  private groupSize = 0;
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
    this.add(text.slice(this.length), Infinity);
    this.source = text;
  }

  /** The text grew by `delta` (a streaming patch): rendered within the frame's budget, the rest by `drain`. */
  append(delta: string): void {
    this.add(delta, FRAME_BUDGET_MS);
  }

  private add(delta: string, budgetMs: number): void {
    if (delta === '') return;
    this.source = undefined;
    this.pending += delta;
    this.length += delta.length;
    this.advance(budgetMs);
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
    const started = performance.now();
    let last = this.scanner.scan(this.pending);
    while (last > 0) {
      const cut = this.scanner.cutWithin(0, SLICE);
      this.commit(cut);
      last -= cut;
      if (performance.now() - started >= budgetMs) break;
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

  /** Renders the pending text up to `cut` (a safe cut) into the current group and drops it from `pending`. */
  private commit(cut: number): void {
    // Completed blocks go into a group until it holds GROUP_SIZE characters; a full group is final and handed to the
    // virtualiser, which may replace it by a placeholder once it is far from the viewport.
    if (!this.group || this.groupSize >= GROUP_SIZE) {
      this.finishGroup();
      this.group = document.createElement('div');
      this.group.className = 'md-blocks';
      this.groupSize = 0;
      this.tail.before(this.group);
    }
    const slice = this.pending.slice(0, cut);
    this.group.append(renderMarkdown(slice));
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
    this.virtualizer?.add(group, () => renderMarkdown(text));
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

  private clear(): void {
    this.scanner.reset();
    for (const child of this.element.children) if (child !== this.tail) this.virtualizer?.remove(child as HTMLElement);
    this.pending = '';
    this.length = 0;
    this.source = '';
    this.groupTexts.length = 0;
    this.group = undefined;
    this.groupSlices = [];
    this.emptyTail();
    this.element.replaceChildren(this.tail);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
