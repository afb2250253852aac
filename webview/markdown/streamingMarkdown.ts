import { stripAnsi } from '../../src/shared/textSafety';
import { prose } from '../dom';
import { BlockBoundaryScanner } from './blockBoundary';
import { createMarkdown, type Markdown } from './markdownIt';

/** Characters of completed Markdown per kept group of blocks. */
const GROUP_SIZE = 16 * 1024;
/**
 * An open block longer than this (a huge code block still streaming, a paragraph that never ends) is shown as plain
 * text while it grows: parsing it again on every frame would cost its whole length each time. It becomes Markdown
 * once it completes, or when the message is settled.
 */
export const OPEN_BLOCK_LIMIT = 32 * 1024;
/**
 * Completed Markdown rendered per frame while streaming. A burst (a slow frame, a flood of patches) leaves a backlog
 * that is taken FRAME_BUDGET at a time in the following frames, so no frame parses and lays out a burst at once.
 */
export const FRAME_BUDGET = 24 * 1024;
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
 * the size of the open block, not of the message.
 */
export class StreamingMarkdown {
  readonly element: HTMLElement;
  private readonly tail: HTMLElement;
  private readonly scanner = new BlockBoundaryScanner();
  private text = '';
  private committed = 0;
  private tailText: string | undefined;
  private group: HTMLElement | undefined;
  private groupSize = 0;
  /** Characters of the open block shown as plain text (plain mode), in `plain`'s pieces. */
  private plainShown = 0;
  private plain: HTMLElement | undefined;
  private piece: HTMLElement | undefined;
  private pieceSize = 0;

  constructor(className = 'md') {
    this.element = document.createElement('div');
    this.element.className = className;
    this.tail = document.createElement('div');
    this.tail.className = 'md-open-block';
    this.element.append(this.tail);
  }

  /**
   * Shows `text`. With `appended`, the caller guarantees the old text is a prefix of the new one (a streaming patch),
   * which avoids comparing them; otherwise a text that is not an extension starts over.
   */
  setText(text: string, appended = false): void {
    if (text === this.text) return;
    if (!appended && !(text.length > this.text.length && text.startsWith(this.text))) this.clear();
    this.text = text;
    this.advance(appended ? FRAME_BUDGET : Infinity);
  }

  /** Completed blocks wait to be rendered (a burst bigger than a frame's budget): call `drain` on the next frame. */
  get backlog(): boolean {
    return this.scanner.scan(this.text) > this.committed;
  }

  /** Renders the next frame's share of the backlog. */
  drain(): void {
    this.advance(FRAME_BUDGET);
  }

  private advance(budget: number): void {
    const text = this.text;
    const last = this.scanner.scan(text);
    const cut = last > this.committed ? this.scanner.cutWithin(this.committed, this.committed + budget) : last;
    if (cut > this.committed) {
      // Completed blocks go into a group until it holds GROUP_SIZE characters: fewer, larger groups keep the
      // per-frame bookkeeping of off-screen content (content-visibility) small in a long message.
      if (!this.group || this.groupSize >= GROUP_SIZE) {
        this.group?.classList.add('md-blocks-done');
        this.group = document.createElement('div');
        this.group.className = 'md-blocks';
        this.groupSize = 0;
        this.tail.before(this.group);
      }
      this.group.append(renderMarkdown(text.slice(this.committed, cut)));
      this.groupSize += cut - this.committed;
      this.committed = cut;
      if (this.plain) this.emptyTail(); // the plain text was (part of) what was just committed
    }
    if (cut < last) {
      // blocks are still waiting: the open block is shown once they are (a frame or two later)
      if (this.tailText !== '') this.emptyTail();
      return;
    }
    const openLength = text.length - this.committed;
    if (openLength > OPEN_BLOCK_LIMIT) return this.showPlain(text);
    const open = text.slice(this.committed);
    if (open !== this.tailText) {
      this.tailText = open;
      this.tail.replaceChildren(renderMarkdown(open));
    }
  }

  /** The message is complete (its turn ended): an open block shown as plain text is rendered as Markdown once. */
  settle(): void {
    if (this.backlog) this.advance(Infinity);
    if (!this.plain) return;
    this.emptyTail();
    this.tailText = this.text.slice(this.committed);
    this.tail.replaceChildren(renderMarkdown(this.tailText));
  }

  /**
   * Appends the open block's new text as plain text (hidden and control characters shown, as in prose), in pieces of
   * about PLAIN_PIECE characters: appending lays out only the last piece, not the whole block.
   */
  private showPlain(text: string): void {
    if (!this.plain) {
      this.plain = document.createElement('div');
      this.plain.className = 'md-plain';
      this.tail.replaceChildren(this.plain);
      this.tailText = undefined;
      this.piece = undefined;
    }
    let at = this.committed + this.plainShown;
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
    this.plainShown = text.length - this.committed;
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
    this.text = '';
    this.committed = 0;
    this.group = undefined;
    this.emptyTail();
    this.element.replaceChildren(this.tail);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
