import type { BlockVirtualizer } from '../markdown/blockVirtualizer';
import { estimatedHeightOf, StreamingMarkdown } from '../markdown/streamingMarkdown';
import type { GapChange } from '../store';
import { h } from '../dom';
import * as l10n from '@vscode/l10n';

/**
 * What the page shows of an answer flooding in faster than it takes it (src/panel/floodGaps.ts): after the text it
 * holds, a gap for the text still on its way, at the height that text will roughly take (so the scroll bar tells the
 * answer's length), then the newest text, rendered as it streams. The gap closes as the skipped text arrives; then the
 * newest text joins the answer's own text and this view goes.
 */
let counts: Intl.NumberFormat | undefined;

/**
 * A count in the page's locale. The formatter is made once: making one (what `toLocaleString` does each call) took
 * ~20 ms the first time in the page, in the frame that showed the first flood.
 */
export function formatCount(n: number): string {
  return (counts ??= new Intl.NumberFormat()).format(n);
}

export class FloodGapView {
  readonly element: HTMLElement;
  private readonly gap = h('div', { class: 'flood-gap', 'aria-hidden': 'true' });
  private readonly newest: StreamingMarkdown;

  constructor(virtualizer?: BlockVirtualizer) {
    this.newest = new StreamingMarkdown('md', virtualizer);
    this.element = h('div', { class: 'flood' }, this.gap, this.newest.element);
  }

  update(change: GapChange): void {
    this.gap.style.height = `${estimatedHeightOf(change.skip)}px`;
    this.gap.textContent = l10n.t('The rest of the answer is on its way ({0} characters)', formatCount(change.skip));
    if (change.reset) this.newest.replace(change.newest.join(''));
    else for (const piece of change.newest) this.newest.append(piece);
  }

  /**
   * The gap closed and `text`, the newest text, joined the answer's own text: `body` takes over what is rendered of it
   * (StreamingMarkdown.adopt) and this view leaves the page. False, and nothing done, when this view does not hold
   * exactly that text (`body` then renders it as any appended text).
   */
  joinInto(body: StreamingMarkdown, text: string): boolean {
    if (this.newest.length !== text.length || this.newest.head(256) !== text.slice(0, 256)) return false;
    body.adopt(this.newest);
    this.element.remove();
    return true;
  }

  setLive(live: boolean): void {
    this.newest.setLive(live);
  }

  get backlog(): boolean {
    return this.newest.backlog;
  }

  drain(): void {
    this.newest.drain();
  }

  remove(): void {
    this.newest.release();
    this.element.remove();
  }
}
