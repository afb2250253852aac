import { h, icon } from '../dom';
import type { Post } from './contentBlocks';
import * as l10n from '@vscode/l10n';

const EDIT_LABEL = l10n.t('Edit message');

/**
 * "Edit message" on a user message: the message turns into a text box with Send and Cancel. Sending posts
 * `editMessage`; the host restores the files to before it (asking first) and continues the conversation from there as
 * a new branch of the message, with the edited text. Enter sends, Shift+Enter adds a line, Escape cancels.
 */
export function editMessageButton(post: Post, entryId: number, currentText: string): HTMLElement {
  const button = h('button', { type: 'button', class: 'icon-button edit-message', 'aria-label': EDIT_LABEL, title: l10n.t('{0}: restore the files to before it and continue from here with the new text', EDIT_LABEL) }, icon('edit'));
  // The message it is on, found when clicked: entries are rebuilt in place, so no element is held on to.
  button.addEventListener('click', () => {
    const message = button.closest<HTMLElement>('.entry.user');
    if (message) openEditor(post, entryId, currentText, message, button);
  });
  return button;
}

function openEditor(post: Post, entryId: number, currentText: string, message: HTMLElement, opener: HTMLElement): void {
  if (message.querySelector('.message-editor')) return;
  const shown = message.querySelector<HTMLElement>('.user-text');
  const box = h('textarea', { class: 'message-editor-text', 'aria-label': l10n.t('Edited message'), rows: '3' }) as HTMLTextAreaElement;
  box.value = currentText;
  const send = h('button', { type: 'button', class: 'primary' }, l10n.t('Send'));
  const cancel = h('button', { type: 'button', class: 'secondary' }, l10n.t('Cancel'));
  const editor = h('div', { class: 'message-editor', role: 'group', 'aria-label': EDIT_LABEL }, box, h('div', { class: 'message-editor-buttons' }, send, cancel));
  const close = () => {
    editor.remove();
    if (shown) shown.hidden = false;
    opener.focus();
  };
  const submit = () => {
    const text = box.value;
    if (text.trim() === '') return;
    post({ type: 'editMessage', entryId, text });
    close();
  };
  const update = () => (send.disabled = box.value.trim() === '');
  box.addEventListener('input', update);
  box.addEventListener('keydown', (event) => {
    if (event.isComposing) return;
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  });
  send.addEventListener('click', submit);
  cancel.addEventListener('click', close);
  if (shown) shown.hidden = true;
  (shown ?? message.firstChild)?.after(editor);
  update();
  box.focus();
  box.setSelectionRange(box.value.length, box.value.length);
}
