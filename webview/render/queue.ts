import type { QueuedView } from '../../src/shared/protocol';
import type { Announcer } from '../announcer';
import { h, icon, prose, proseString, revealed } from '../dom';
import type { Post } from './contentBlocks';
import * as l10n from '@vscode/l10n';

/** A queued message longer than this (characters or lines) is shown clamped, with Show all. */
const CLAMP_CHARS = 200;
const CLAMP_LINES = 3;
/** The inline editor grows with its text up to this height (px), then scrolls. */
const EDITOR_MAX_HEIGHT = 160;

/**
 * The messages the user sent while a turn runs, above the prompt, in the order the host will send them. Each is a
 * region "Queued message" with Edit, Remove and Send now; the host owns the queue and every change comes back as a
 * new list, so the items are kept by id: an update changes what it must and leaves an edit in progress alone.
 */
export class QueueList {
  readonly element: HTMLElement;
  private readonly heading = h('div', { class: 'queue-heading', id: 'queue-heading' });
  private readonly list = h('div', { class: 'queue-items' });
  private readonly items = new Map<number, QueuedItem>();
  /** The agent takes a message mid-turn: Send now goes into the turn instead of stopping it. */
  private midTurn = false;

  constructor(
    private readonly post: Post,
    private readonly announcer: Announcer,
    private readonly focusPrompt: () => void,
  ) {
    this.element = h('div', { class: 'queue', role: 'group', 'aria-labelledby': 'queue-heading' }, this.heading, this.list);
    this.element.hidden = true;
  }

  setMidTurn(midTurn: boolean): void {
    if (this.midTurn === midTurn) return;
    this.midTurn = midTurn;
    for (const item of this.items.values()) item.setMidTurn(midTurn);
  }

  /** `reset`: a snapshot (the panel opened or caught up), whose items are not news to announce. */
  update(queue: readonly QueuedView[], reset: boolean): void {
    const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const order = [...this.items.values()];
    const ids = new Set(queue.map((view) => view.id));
    let lostFocus: { index: number; action: string | undefined } | undefined;
    let lostEdit = false;
    for (const [id, item] of this.items) {
      if (ids.has(id)) continue;
      if (active && item.element.contains(active)) lostFocus = { index: order.indexOf(item), action: active.dataset.action };
      lostEdit ||= item.editing;
      item.element.remove();
      this.items.delete(id);
    }
    const added: QueuedView[] = [];
    queue.forEach((view, index) => {
      let item = this.items.get(view.id);
      if (item) item.update(view);
      else {
        item = new QueuedItem(view, this.post);
        item.setMidTurn(this.midTurn);
        this.items.set(view.id, item);
        added.push(view);
      }
      // Appends and removals leave the kept items where they are: only new or reordered ones move.
      const at = this.list.children[index];
      if (at !== item.element) this.list.insertBefore(item.element, at ?? null);
    });
    // A reordered item was taken out and put back, which drops the focus: give it back.
    if (active?.isConnected && document.activeElement !== active) active.focus();

    this.element.hidden = queue.length === 0;
    this.heading.replaceChildren(icon('list-ordered'), (' ' + l10n.t('Queued ({0})', queue.length)));
    if (lostFocus) this.refocus(lostFocus.index, lostFocus.action);
    if (!reset && added.length === 1) this.announcer.say(l10n.t('Queued: {0}', added[0].text));
    else if (!reset && added.length > 1) this.announcer.say(l10n.t('{0} messages queued', added.length));
    else if (lostEdit) this.announcer.say(l10n.t('The message being edited left the queue; its edit is closed.'));
  }

  /** The focus was in an item that went (sent, removed): the same button of the item now in its place, else the prompt. */
  private refocus(index: number, action: string | undefined): void {
    const items = [...this.items.values()];
    const next = items[Math.min(index, items.length - 1)];
    if (!next) return this.focusPrompt();
    next.focus(action);
  }
}

/** One queued message: its text (clamped when long), its attachments' labels, and its actions or its editor. */
class QueuedItem {
  readonly element: HTMLElement;
  private readonly text = h('div', { class: 'queued-text' });
  private readonly more = h('button', { type: 'button', class: 'link-button queued-more', 'aria-expanded': 'false', 'data-action': 'more' }, l10n.t('Show all'));
  private readonly chips = h('div', { class: 'queued-chips', role: 'list', 'aria-label': l10n.t('Attachments') });
  private readonly actions: HTMLElement;
  private readonly footer: HTMLElement;
  private readonly sendNow: HTMLButtonElement;
  private editor: HTMLElement | undefined;
  private expanded = false;

  constructor(
    private view: QueuedView,
    private readonly post: Post,
  ) {
    const edit = button('edit', l10n.t('Edit'), l10n.t('Edit this message'), 'edit');
    const remove = button('trash', l10n.t('Remove'), l10n.t('Remove it from the queue'), 'remove');
    const sendNow = (this.sendNow = button('send', l10n.t('Send now'), STOP_AND_SEND, 'send-now'));
    edit.addEventListener('click', () => this.startEdit());
    remove.addEventListener('click', () => post({ type: 'queueRemove', id: this.view.id }));
    sendNow.addEventListener('click', () => post({ type: 'queueSendNow', id: this.view.id }));
    this.more.addEventListener('click', () => {
      this.expanded = !this.expanded;
      this.renderText();
    });
    this.actions = h('div', { class: 'queued-actions' }, edit, remove, sendNow);
    this.footer = h('div', { class: 'queued-footer' }, this.chips, this.actions);
    this.element = h('div', { class: 'queued', role: 'region', 'aria-label': l10n.t('Queued message') }, this.text, this.more, this.footer);
    this.renderText();
    this.renderChips();
  }

  get editing(): boolean {
    return this.editor !== undefined;
  }

  setMidTurn(midTurn: boolean): void {
    this.sendNow.title = midTurn ? INTO_THE_TURN : STOP_AND_SEND;
  }

  update(view: QueuedView): void {
    const old = this.view;
    this.view = view;
    // Under an open editor the text is hidden; it is brought up to date all the same for when the editor closes.
    if (view.text !== old.text) this.renderText();
    if (view.attachments.join('\n') !== old.attachments.join('\n')) this.renderChips();
  }

  focus(action: string | undefined): void {
    const target = this.element.querySelector<HTMLElement>(`[data-action="${action ?? ''}"]`) ?? this.element.querySelector<HTMLElement>('.queued-actions button');
    target?.focus();
  }

  private renderText(): void {
    const text = this.view.text;
    const long = text.length > CLAMP_CHARS || text.split('\n').length > CLAMP_LINES;
    // The user's own words as typed: plain text, hidden characters shown, as in the transcript.
    this.text.replaceChildren(prose(text));
    if (long) this.text.title = proseString(text);
    else this.text.removeAttribute('title');
    this.text.classList.toggle('clamped', long && !this.expanded);
    this.more.hidden = !long || this.editing;
    this.more.textContent = this.expanded ? l10n.t('Show less') : l10n.t('Show all');
    this.more.setAttribute('aria-expanded', String(this.expanded));
  }

  private renderChips(): void {
    this.chips.hidden = this.view.attachments.length === 0;
    this.chips.replaceChildren(
      ...this.view.attachments.map((label) => h('span', { class: 'chip', role: 'listitem', title: label }, icon('file'), h('span', { class: 'chip-label' }, revealed(label)))),
    );
  }

  private startEdit(): void {
    if (this.editor) return;
    const textarea = h('textarea', { class: 'queued-input', 'aria-label': l10n.t('Edit queued message'), rows: 2, 'data-action': 'edit-text' });
    textarea.value = this.view.text;
    const save = button('check', l10n.t('Save'), l10n.t('Save (Enter)'), 'save');
    const cancel = button('close', l10n.t('Cancel'), l10n.t('Cancel (Escape)'), 'cancel');
    save.classList.remove('secondary');
    const grow = () => {
      textarea.style.height = 'auto';
      textarea.style.height = `${Math.min(textarea.scrollHeight, EDITOR_MAX_HEIGHT)}px`;
    };
    textarea.addEventListener('input', () => {
      save.disabled = textarea.value.trim() === '';
      grow();
    });
    textarea.addEventListener('keydown', (event) => {
      if (event.isComposing) return;
      if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        this.save(textarea.value);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        this.closeEdit();
      }
    });
    save.addEventListener('click', () => this.save(textarea.value));
    cancel.addEventListener('click', () => this.closeEdit());
    this.editor = h('div', { class: 'queued-editor' }, textarea, h('div', { class: 'queued-actions' }, save, cancel));
    this.text.hidden = this.more.hidden = this.actions.hidden = true;
    this.element.insertBefore(this.editor, this.text);
    grow();
    textarea.focus();
    textarea.setSelectionRange(textarea.value.length, textarea.value.length);
  }

  /** Empty text is not a message: nothing is saved (Remove is for that). Unchanged text closes without a word. */
  private save(text: string): void {
    if (text.trim() === '') return;
    if (text !== this.view.text) {
      this.post({ type: 'queueEdit', id: this.view.id, text });
      // Shown at once; the host's list, when it comes, says the same.
      this.view = { ...this.view, text };
      this.renderText();
    }
    this.closeEdit();
  }

  private closeEdit(): void {
    this.editor?.remove();
    this.editor = undefined;
    this.text.hidden = this.actions.hidden = false;
    this.renderText();
    this.focus('edit');
  }
}

const STOP_AND_SEND = l10n.t('Stop the turn and send this now');
const INTO_THE_TURN = l10n.t('Send this now, into the running turn: the agent reads it at its next step');

function button(codicon: string, label: string, title: string, action: string): HTMLButtonElement {
  return h('button', { type: 'button', class: 'secondary small', title, 'data-action': action }, icon(codicon), label);
}
