import * as l10n from '@vscode/l10n';
/** The keys that move through the conversation, as the panel's help lists them. */
export const MESSAGE_KEYS = {
  previous: l10n.t('Alt+↑'),
  next: l10n.t('Alt+↓'),
  first: l10n.t('Alt+Home'),
  last: l10n.t('Alt+End'),
  toPrompt: l10n.t('Escape'),
} as const;

/**
 * Moves the keyboard focus from message to message in the conversation: Alt+↑ / Alt+↓ the previous / next entry
 * (from the prompt, Alt+↑ goes to the last one; past the last, Alt+↓ comes back to the prompt), Alt+Home / Alt+End
 * the first / last entry shown, Escape on a message back to the prompt. Alt with the arrows, Home and End is bound to
 * nothing in VS Code outside a text editor or a terminal, and a webview has neither, so the workbench never takes
 * these keys from the panel. Each entry becomes focusable (tabindex -1) when the focus moves to it: a screen reader
 * reads the message, and the focus ring shows where the reader is. Before the first entry shown is "Show earlier",
 * when there is more.
 */
export class MessageNavigation {
  constructor(
    private readonly root: HTMLElement,
    private readonly focusPrompt: () => void,
  ) {
    root.addEventListener('keydown', (event) => this.keydown(event));
  }

  private keydown(event: KeyboardEvent): void {
    const current = this.currentEntry();
    if (event.key === 'Escape' && current && document.activeElement === current && !event.altKey) {
      event.preventDefault();
      this.focusPrompt();
      return;
    }
    if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const entries = this.entries();
    const at = current ? entries.indexOf(current) : -1;
    let target: HTMLElement | 'prompt' | 'earlier' | undefined;
    if (event.key === 'ArrowUp') target = at > 0 ? entries[at - 1] : at === 0 ? 'earlier' : entries.at(-1);
    else if (event.key === 'ArrowDown') target = at >= 0 && at < entries.length - 1 ? entries[at + 1] : at >= 0 ? 'prompt' : undefined;
    else if (event.key === 'Home') target = entries[0];
    else if (event.key === 'End') target = entries.at(-1);
    else return;
    event.preventDefault();
    if (target === 'prompt') this.focusPrompt();
    else if (target === 'earlier') this.showEarlierButton()?.focus();
    else if (target) {
      target.tabIndex = -1;
      target.focus();
      target.scrollIntoView({ block: 'nearest' });
    }
  }

  /** The conversation's entries on screen, in order. */
  private entries(): HTMLElement[] {
    return [...this.root.querySelectorAll<HTMLElement>('.transcript .entries > .entry')].filter((e) => !e.hidden && e.getClientRects().length > 0);
  }

  /** The entry holding the focus (the entry itself or a control inside it). */
  private currentEntry(): HTMLElement | null {
    const active = document.activeElement;
    return active instanceof HTMLElement ? active.closest<HTMLElement>('.transcript .entries > .entry') : null;
  }

  private showEarlierButton(): HTMLButtonElement | null {
    const button = this.root.querySelector<HTMLButtonElement>('.transcript .show-earlier');
    return button && !button.hidden ? button : null;
  }
}
