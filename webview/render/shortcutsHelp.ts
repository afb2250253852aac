import { h, icon } from '../dom';
import { MESSAGE_KEYS } from '../messageNavigation';

/** Every key the panel answers to, in the order a user meets them. The README's table says the same. */
export const SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
  ['Enter', 'Send the message (queued while the agent works)'],
  ['Shift+Enter', 'New line in the message'],
  ['↑ / ↓ at the start / end of the prompt', 'Earlier / later messages you sent'],
  ['/', 'The agent’s commands'],
  ['@', 'Mention a file (attached with the message)'],
  [`${MESSAGE_KEYS.previous} / ${MESSAGE_KEYS.next}`, 'Previous / next message in the conversation (from the prompt: the last one)'],
  [`${MESSAGE_KEYS.first} / ${MESSAGE_KEYS.last}`, 'First / last message shown'],
  [`${MESSAGE_KEYS.toPrompt} on a message`, 'Back to the prompt'],
  ['Tab / Shift+Tab', 'Next / previous control'],
  ['Enter or Space', 'Press the focused button (a permission option, Accept, Open diff…)'],
  ['Enter in a question', 'Submit the form'],
  ['Escape in a question', 'Cancel it'],
];

/**
 * The panel's help: a "Keyboard shortcuts" button for the header that opens a section listing every shortcut, closed
 * again by the button, its Close button or Escape (the focus goes back to the button).
 */
export class ShortcutsHelp {
  readonly button: HTMLButtonElement;
  readonly element: HTMLElement;

  constructor() {
    this.button = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Keyboard shortcuts', title: 'Keyboard shortcuts', 'aria-expanded': 'false', 'aria-controls': 'shortcuts-help' }, icon('keyboard'));
    const close = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Close keyboard shortcuts', title: 'Close' }, icon('close'));
    const list = h('dl', { class: 'shortcuts-list' });
    for (const [keys, what] of SHORTCUTS) list.append(h('dt', {}, h('kbd', {}, keys)), h('dd', {}, what));
    this.element = h(
      'section',
      { class: 'shortcuts-help', id: 'shortcuts-help', 'aria-labelledby': 'shortcuts-help-heading', hidden: true },
      h('div', { class: 'shortcuts-heading' }, h('h2', { id: 'shortcuts-help-heading' }, icon('keyboard'), ' Keyboard shortcuts'), close),
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
