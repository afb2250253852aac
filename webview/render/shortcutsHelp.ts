import { h, icon } from '../dom';
import { MESSAGE_KEYS } from '../messageNavigation';
import * as l10n from '@vscode/l10n';

/** Every key the panel answers to, in the order a user meets them. The README's table says the same. */
export const SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
  [l10n.t('Enter'), l10n.t('Send the message (queued while the agent works)')],
  [l10n.t('Shift+Enter'), l10n.t('New line in the message')],
  [l10n.t('↑ / ↓ at the start / end of the prompt'), l10n.t('Earlier / later messages you sent')],
  ['/', l10n.t('The agent’s commands')],
  ['@', l10n.t('Mention a file (attached with the message)')],
  [`${MESSAGE_KEYS.previous} / ${MESSAGE_KEYS.next}`, l10n.t('Previous / next message in the conversation (from the prompt: the last one)')],
  [`${MESSAGE_KEYS.first} / ${MESSAGE_KEYS.last}`, l10n.t('First / last message shown')],
  [l10n.t('{0} on a message', MESSAGE_KEYS.toPrompt), l10n.t('Back to the prompt')],
  [l10n.t('Tab / Shift+Tab'), l10n.t('Next / previous control')],
  [l10n.t('Enter or Space'), l10n.t('Press the focused button (a permission option, Accept, Open diff…)')],
  [l10n.t('Enter in a question'), l10n.t('Submit the form')],
  [l10n.t('Escape in a question'), l10n.t('Cancel it')],
];

/**
 * The panel's help: a "Keyboard shortcuts" button for the header that opens a section listing every shortcut, closed
 * again by the button, its Close button or Escape (the focus goes back to the button).
 */
export class ShortcutsHelp {
  readonly button: HTMLButtonElement;
  readonly element: HTMLElement;

  constructor() {
    this.button = h('button', { type: 'button', class: 'icon-button', 'aria-label': l10n.t('Keyboard shortcuts'), title: l10n.t('Keyboard shortcuts'), 'aria-expanded': 'false', 'aria-controls': 'shortcuts-help' }, icon('keyboard'));
    const close = h('button', { type: 'button', class: 'icon-button', 'aria-label': l10n.t('Close keyboard shortcuts'), title: l10n.t('Close') }, icon('close'));
    const list = h('dl', { class: 'shortcuts-list' });
    for (const [keys, what] of SHORTCUTS) list.append(h('dt', {}, h('kbd', {}, keys)), h('dd', {}, what));
    this.element = h(
      'section',
      { class: 'shortcuts-help', id: 'shortcuts-help', 'aria-labelledby': 'shortcuts-help-heading', hidden: true },
      h('div', { class: 'shortcuts-heading' }, h('h2', { id: 'shortcuts-help-heading' }, icon('keyboard'), (' ' + l10n.t('Keyboard shortcuts'))), close),
      list,
    );
    this.button.addEventListener('click', () => this.toggle(this.element.hidden));
    close.addEventListener('click', () => this.toggle(false));
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      this.toggle(false);
    });
  }

  toggle(open: boolean): void {
    this.element.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (open) this.element.querySelector<HTMLElement>('button')?.focus();
    else this.button.focus();
  }
}
