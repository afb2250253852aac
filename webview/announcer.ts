import { h } from './dom';
import * as l10n from '@vscode/l10n';

/** Longest announcement: a screen reader reads the rest from the transcript if the user wants it. */
const MAX = 500;

/**
 * A polite live region for completed agent messages (never per chunk: a stream of partial sentences is noise) and
 * for what the page did that is not otherwise heard (a message queued). Markdown punctuation is dropped so it is not
 * read out.
 */
export class Announcer {
  readonly element = h('div', { class: 'sr-only announcer', 'aria-live': 'polite', 'aria-atomic': 'true' });
  private timer: ReturnType<typeof setTimeout> | undefined;

  announce(markdownText: string): void {
    // Only the beginning can be said: the rest of a 10 MiB answer is not even looked at.
    const plain = markdownText
      .slice(0, 4 * MAX)
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
    const text = plain.length > MAX ? `${plain.slice(0, MAX)}…` : plain;
    // Clearing first makes the same text announce again.
    this.element.textContent = '';
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.element.textContent = text), 50);
  }

  /** What was announced last (tests). */
  get last(): string {
    return this.element.textContent ?? '';
  }
}
