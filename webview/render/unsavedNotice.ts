import { h, icon, revealed } from '../dom';
import type { Announcer } from '../announcer';
import type { Post } from './contentBlocks';
import * as l10n from '@vscode/l10n';

const SHOWN = 8;

/**
 * Above the prompt when a sent message is held because workspace files have unsaved changes and the agent reads
 * files from disk (the host decides; `howdah.saveBeforePrompt`): which files, then Save all and send, Send anyway,
 * Cancel (the message goes back into the prompt) and a link to the setting. The first button takes the focus, so
 * Enter saves and sends.
 */
export class UnsavedNotice {
  readonly element = h('div', { class: 'unsaved-notice', role: 'region', 'aria-label': l10n.t('Unsaved files') });
  private shownId: number | undefined;

  constructor(
    private readonly post: Post,
    private readonly announcer: Announcer,
    private readonly focusPrompt: () => void,
  ) {
    this.element.hidden = true;
  }

  update(notice: { readonly id: number; readonly files: readonly string[] } | null): void {
    if (!notice) {
      const hadFocus = this.element.contains(document.activeElement);
      this.element.hidden = true;
      this.element.replaceChildren();
      this.shownId = undefined;
      if (hadFocus) this.focusPrompt();
      return;
    }
    if (notice.id === this.shownId) return;
    this.shownId = notice.id;
    const count = notice.files.length;
    const heading = count === 1 ? l10n.t('1 unsaved file — the agent reads files from disk') : l10n.t('{0} unsaved files — the agent reads files from disk', count);
    const choose = (choice: 'save' | 'send' | 'cancel' | 'settings') => () => this.post({ type: 'unsavedChoice', id: notice.id, choice });
    const save = button('save-all', l10n.t('Save all and send'), 'primary', choose('save'));
    const more = count > SHOWN ? h('li', { class: 'unsaved-more' }, l10n.t('and {0} more', count - SHOWN)) : null;
    const setting = h('button', { type: 'button', class: 'link-button' }, l10n.t('Change this in Settings (howdah.saveBeforePrompt)'));
    setting.addEventListener('click', choose('settings'));
    this.element.replaceChildren(
      h('div', { class: 'unsaved-heading' }, icon('warning'), ' ', heading),
      h('ul', { class: 'unsaved-files' }, ...notice.files.slice(0, SHOWN).map((file) => h('li', {}, revealed(file))), more),
      h('div', { class: 'unsaved-actions' }, save, button('send', l10n.t('Send anyway'), 'secondary', choose('send')), button('close', l10n.t('Cancel'), 'secondary', choose('cancel')), setting),
    );
    this.element.hidden = false;
    this.announcer.say(l10n.t('{0}. Save all and send, Send anyway, or Cancel.', heading));
    save.focus();
  }
}

function button(codicon: string, label: string, kind: 'primary' | 'secondary', onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: kind }, icon(codicon), ` ${label}`) as HTMLButtonElement;
  b.addEventListener('click', onClick);
  return b;
}
