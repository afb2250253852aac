import { h } from './dom';
import * as l10n from '@vscode/l10n';

/** Longest announcement: a screen reader reads the rest from the transcript if the user wants it. */
const MAX = 500;
/** Characters of an agent message's Markdown an announcement is made from (its punctuation is dropped first). */
export const ANNOUNCED_SOURCE = 4 * MAX;
/**
 * How long an announcement stays in its region. A screen reader takes the text when it changes, so it is cleared
 * after: left there, the page's find (VS Code's find in a webview is the browser's) counted matches in text nobody
 * sees, and "find next" went to them before the transcript's.
 */
const SHOWN_MS = 3000;

/**
 * Two live regions. The polite one takes completed agent messages (never per chunk: a stream of partial sentences is
 * noise; a message is read once the agent moves on or the turn ends) and what the page did that is not otherwise
 * heard (a message queued). The assertive one takes what waits for the user (a permission prompt, a question), which
 * interrupts whatever is being read. Markdown punctuation is dropped so it is not read out.
 */
export class Announcer {
  private readonly polite = h('div', { class: 'announcer', 'aria-live': 'polite', 'aria-atomic': 'true' });
  private readonly assertive = h('div', { class: 'announcer', 'aria-live': 'assertive', 'aria-atomic': 'true' });
  readonly element = h('div', { class: 'sr-only' }, this.polite, this.assertive);
  private readonly timers = new Map<HTMLElement, ReturnType<typeof setTimeout>>();

  /** `markdownText`: the message's beginning, ANNOUNCED_SOURCE characters are enough. */
  announce(markdownText: string): void {
    const plain = markdownText
      .slice(0, ANNOUNCED_SOURCE)
      .replace(/```[^\n]*\n[\s\S]*?(```|$)/g, ' (code) ')
      .replace(/[#*_`>~|]+/g, ' ')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
    if (plain === '') return;
    this.say(l10n.t('Agent: {0}', plain));
  }

  /** Plain text in our words (a message queued, …), capped like the agent's. */
  say(plain: string): void {
    this.put(this.polite, plain);
  }

  /** Something that waits for the user's answer: read at once, interrupting. */
  alert(plain: string): void {
    this.put(this.assertive, plain);
  }

  private put(region: HTMLElement, plain: string): void {
    const text = plain.length > MAX ? `${plain.slice(0, MAX)}…` : plain;
    // Clearing first makes the same text announce again.
    region.textContent = '';
    const timer = this.timers.get(region);
    if (timer) clearTimeout(timer);
    this.timers.set(region, setTimeout(() => {
      region.textContent = text;
      this.timers.set(region, setTimeout(() => (region.textContent = ''), SHOWN_MS));
    }, 50));
  }
}
