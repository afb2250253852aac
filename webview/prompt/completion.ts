import { h, prose, revealed } from '../dom';

export interface CompletionItem {
  readonly label: string;
  readonly detail?: string;
}

let nextListId = 1;

/**
 * The suggestion list under the prompt (commands after `/`, files after `@`). The focus stays in the text box; the
 * active item is exposed with `aria-activedescendant`, as a combobox's list is.
 */
export class CompletionList<T extends CompletionItem> {
  readonly element: HTMLElement;
  readonly id = `completion-${nextListId++}`;
  private items: readonly T[] = [];
  private active = 0;
  private onAccept: (item: T) => void = () => undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    label: string,
  ) {
    this.element = h('div', { class: 'completion', role: 'listbox', id: this.id, 'aria-label': label });
    this.element.hidden = true;
    // Keep the focus in the text box when an item is clicked.
    this.element.addEventListener('mousedown', (event) => event.preventDefault());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  show(items: readonly T[], onAccept: (item: T) => void): void {
    if (items.length === 0) return this.close();
    this.items = items;
    this.onAccept = onAccept;
    this.active = 0;
    this.element.replaceChildren(
      ...items.map((item, i) => {
        const option = h(
          'div',
          { class: 'completion-item', role: 'option', id: `${this.id}-${i}`, 'aria-selected': 'false' },
          h('span', { class: 'completion-label' }, revealed(item.label)),
          item.detail ? h('span', { class: 'completion-detail' }, prose(item.detail)) : null,
        );
        option.addEventListener('click', () => this.accept(i));
        return option;
      }),
    );
    this.element.hidden = false;
    this.input.setAttribute('aria-controls', this.id);
    this.highlight();
  }

  close(): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.items = [];
    this.input.removeAttribute('aria-controls');
    this.input.removeAttribute('aria-activedescendant');
  }

  move(delta: number): void {
    if (this.items.length === 0) return;
    this.active = (this.active + delta + this.items.length) % this.items.length;
    this.highlight();
  }

  accept(index = this.active): boolean {
    const item = this.items[index];
    if (!item) return false;
    this.close();
    this.onAccept(item);
    return true;
  }

  private highlight(): void {
    this.element.querySelectorAll('[role=option]').forEach((el, i) => {
      el.setAttribute('aria-selected', String(i === this.active));
      el.classList.toggle('active', i === this.active);
      if (i === this.active) el.scrollIntoView({ block: 'nearest' });
    });
    this.input.setAttribute('aria-activedescendant', `${this.id}-${this.active}`);
  }
}
