import { stripAnsi } from '../../src/panel/textSafety';
import { BlockBoundaryScanner } from './blockBoundary';
import { createMarkdown, type Markdown } from './markdownIt';

/** Characters of completed Markdown per kept group of blocks. */
const GROUP_SIZE = 16 * 1024;

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
    const cut = this.scanner.scan(text);
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
    }
    const open = text.slice(this.committed);
    if (open !== this.tailText) {
      this.tailText = open;
      this.tail.replaceChildren(renderMarkdown(open));
    }
  }

  private clear(): void {
    this.scanner.reset();
    this.text = '';
    this.committed = 0;
    this.tailText = undefined;
    this.group = undefined;
    this.tail.replaceChildren();
    this.element.replaceChildren(this.tail);
  }
}
