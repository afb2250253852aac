import type { Attachment, CommandView, FileMatchView, HeaderView, TurnView } from '../../src/shared/protocol';
import { h, icon, imageDataUri, revealed } from '../dom';
import type { HostChannel } from '../hostChannel';
import { CompletionList, type CompletionItem } from './completion';
import { PromptHistory } from './history';
import * as l10n from '@vscode/l10n';

/** An attachment, and whether it came from an `@` mention (kept only while its `@label` is still in the text). */
interface Attached {
  readonly attachment: Attachment;
  readonly mention: boolean;
}

type Suggestion = CompletionItem & ({ kind: 'command'; command: CommandView } | { kind: 'file'; file: FileMatchView });

const MAX_HEIGHT = 240;
const PLACEHOLDER = l10n.t('Ask the agent… (/ for commands, @ for files)');
const QUEUE_PLACEHOLDER = l10n.t('Queue a message for when the agent is done…');

/**
 * The prompt: a text box ("Prompt"), attachment chips, Send and Stop. Enter sends (queues while a turn runs),
 * Shift+Enter adds a line, ↑/↓ at the start/end walk the history, `/` completes the agent's commands (with their
 * input hint), `@` completes workspace files (the host searches) and attaches them, pasted images are attached when
 * the agent takes images.
 */
export class PromptEditor {
  readonly element: HTMLElement;
  readonly textarea: HTMLTextAreaElement;
  private readonly chips = h('div', { class: 'attachment-chips', role: 'list', 'aria-label': l10n.t('Attachments') });
  private readonly hint = h('div', { class: 'prompt-hint', 'aria-live': 'polite' });
  private readonly send: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  private readonly completion: CompletionList<Suggestion>;
  private readonly history: PromptHistory;
  private attached: Attached[] = [];
  private commands: readonly CommandView[] = [];
  private capabilities: HeaderView['capabilities'] = { image: false, embeddedContext: false };
  private searchId = 0;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  private pastedImages = 0;
  private pastedSounds = 0;

  constructor(private readonly host: HostChannel) {
    const saved = host.uiState();
    this.history = new PromptHistory(saved.history ?? []);
    this.textarea = h('textarea', {
      class: 'prompt-input',
      'aria-label': l10n.t('Prompt'),
      rows: 2,
      placeholder: PLACEHOLDER,
      // A textarea is a textbox, which has no aria-expanded: the suggestions are tied to it by aria-controls and
      // aria-activedescendant (CompletionList), which textboxes support.
      'aria-autocomplete': 'list',
    });
    this.textarea.value = saved.draft ?? '';
    this.completion = new CompletionList<Suggestion>(this.textarea, l10n.t('Suggestions'));
    this.send = h('button', { type: 'button', class: 'send', 'aria-label': l10n.t('Send'), title: l10n.t('Send (Enter)') }, icon('send'));
    this.stop = h('button', { type: 'button', class: 'stop secondary', 'aria-label': l10n.t('Stop'), title: l10n.t('Stop the turn') }, icon('debug-stop'));
    this.send.addEventListener('click', () => this.submit());
    this.stop.addEventListener('click', () => host.post({ type: 'cancel' }));
    this.textarea.addEventListener('keydown', (e) => this.keydown(e));
    this.textarea.addEventListener('input', () => this.changed());
    this.textarea.addEventListener('click', () => this.suggest());
    this.textarea.addEventListener('paste', (e) => this.paste(e));
    this.textarea.addEventListener('blur', () => setTimeout(() => this.completion.close(), 150));
    this.element = h(
      'div',
      { class: 'composer' },
      this.completion.element,
      this.chips,
      h('div', { class: 'prompt-row' }, this.textarea, h('div', { class: 'prompt-buttons' }, this.send, this.stop)),
      this.hint,
    );
    this.renderChips();
    this.setTurn('idle');
  }

  /**
   * While a turn runs the prompt stays usable: what is sent then is queued by the host (shown above the prompt) and
   * sent when the turn ends, so Send says that it queues.
   */
  setTurn(turn: TurnView): void {
    const queues = turn !== 'idle';
    this.send.setAttribute('aria-label', queues ? l10n.t('Queue message') : l10n.t('Send'));
    this.send.title = queues ? l10n.t('Queue message (Enter)') : l10n.t('Send (Enter)');
    this.send.replaceChildren(icon(queues ? 'list-ordered' : 'send'));
    this.textarea.placeholder = queues ? QUEUE_PLACEHOLDER : PLACEHOLDER;
    this.stop.hidden = turn === 'idle';
    this.stop.disabled = turn === 'cancelling';
  }

  setCommands(commands: readonly CommandView[]): void {
    this.commands = commands;
  }

  setCapabilities(capabilities: HeaderView['capabilities']): void {
    this.capabilities = capabilities;
  }

  attach(attachments: readonly Attachment[]): void {
    for (const attachment of attachments) this.attached.push({ attachment, mention: false });
    this.renderChips();
  }

  /** A message the host gave back (the user cancelled sending it): in the box again, before what was typed since. */
  restore(text: string, attachments: readonly Attachment[]): void {
    const typed = this.textarea.value;
    this.setValue(typed.trim() === '' ? text : `${text}\n${typed}`, 'end');
    this.attach(attachments);
  }

  fileResults(requestId: number, files: readonly FileMatchView[]): void {
    if (requestId !== this.searchId || !this.currentMention()) return;
    this.completion.show(
      files.map((file) => ({ kind: 'file', file, label: file.label })),
      (item) => item.kind === 'file' && this.acceptFile(item.file),
    );
  }

  focus(): void {
    this.textarea.focus();
  }

  private keydown(event: KeyboardEvent): void {
    if (event.isComposing) return;
    if (this.completion.isOpen) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        this.completion.move(event.key === 'ArrowDown' ? 1 : -1);
        event.preventDefault();
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        if (this.completion.accept()) event.preventDefault();
        return;
      }
      if (event.key === 'Escape') {
        this.completion.close();
        event.preventDefault();
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      this.submit();
      return;
    }
    // Alt with the arrows moves between messages (MessageNavigation), not through the history.
    if (event.altKey) return;
    const { selectionStart, selectionEnd, value } = this.textarea;
    if (event.key === 'ArrowUp' && selectionStart === 0 && selectionEnd === 0) {
      const previous = this.history.previous(value);
      if (previous !== undefined) this.setValue(previous, 'start');
      event.preventDefault();
    } else if (event.key === 'ArrowDown' && selectionStart === value.length && selectionEnd === value.length) {
      const next = this.history.next();
      if (next !== undefined) {
        this.setValue(next, 'end');
        event.preventDefault();
      }
    }
  }

  private submit(): void {
    const text = this.textarea.value;
    const attachments = this.attached.filter((a) => !a.mention || text.includes(`@${a.attachment.label}`)).map((a) => a.attachment);
    if (text.trim() === '' && attachments.length === 0) return;
    this.host.post({ type: 'send', text, attachments });
    this.history.push(text);
    this.attached = [];
    this.renderChips();
    this.setValue('', 'end');
    this.host.saveUiState({ history: [...this.history.entries], draft: '' });
  }

  private changed(): void {
    this.autoGrow();
    this.suggest();
    this.host.saveUiState({ draft: this.textarea.value });
  }

  private setValue(value: string, caret: 'start' | 'end'): void {
    this.textarea.value = value;
    const at = caret === 'start' ? 0 : value.length;
    this.textarea.setSelectionRange(at, at);
    this.autoGrow();
    this.completion.close();
    this.updateHint();
  }

  /** Opens, updates or closes the suggestions for what is before the caret. */
  private suggest(): void {
    this.updateHint();
    const before = this.textarea.value.slice(0, this.textarea.selectionStart);
    const slash = /^\/(\S*)$/.exec(before);
    if (slash && this.commands.length > 0) {
      const query = slash[1].toLowerCase();
      const matches = this.commands.filter((c) => c.name.toLowerCase().includes(query)).sort((a, b) => Number(!a.name.toLowerCase().startsWith(query)) - Number(!b.name.toLowerCase().startsWith(query)));
      return this.completion.show(
        matches.map((command) => ({ kind: 'command', command, label: `/${command.name}`, detail: command.description })),
        (item) => item.kind === 'command' && this.acceptCommand(item.command),
      );
    }
    const mention = this.currentMention();
    if (mention) {
      const id = ++this.searchId;
      if (this.searchTimer) clearTimeout(this.searchTimer);
      // A short pause so typing a name is one search, not one per letter.
      this.searchTimer = setTimeout(() => this.host.post({ type: 'searchFiles', requestId: id, query: mention.query }), 40);
      return;
    }
    this.completion.close();
  }

  private currentMention(): { start: number; query: string } | undefined {
    const before = this.textarea.value.slice(0, this.textarea.selectionStart);
    const match = /(^|\s)@([^\s@]*)$/.exec(before);
    return match ? { start: before.length - match[2].length - 1, query: match[2] } : undefined;
  }

  private acceptCommand(command: CommandView): void {
    const rest = this.textarea.value.slice(this.textarea.selectionStart).replace(/^\S*/, '');
    this.setValue(`/${command.name} ${rest.trimStart()}`, 'end');
    const caret = command.name.length + 2;
    this.textarea.setSelectionRange(caret, caret);
    this.updateHint();
  }

  private acceptFile(file: FileMatchView): void {
    const mention = this.currentMention();
    if (!mention) return;
    const value = this.textarea.value;
    const caret = this.textarea.selectionStart;
    const inserted = `@${file.label} `;
    this.setValue(value.slice(0, mention.start) + inserted + value.slice(caret), 'end');
    const at = mention.start + inserted.length;
    this.textarea.setSelectionRange(at, at);
    if (!this.attached.some((a) => a.attachment.kind === 'file' && a.attachment.uri === file.uri)) {
      this.attached.push({ attachment: { kind: 'file', uri: file.uri, label: file.label }, mention: true });
      this.renderChips();
    }
  }

  /** The input hint of the command being typed (`/name …`). */
  private updateHint(): void {
    const command = /^\/(\S+)\s/.exec(this.textarea.value)?.[1];
    const hint = command ? this.commands.find((c) => c.name === command)?.hint : undefined;
    this.hint.textContent = hint ? `/${command}: ${hint}` : '';
  }

  /** Pasted pictures and sounds become attachments, when the agent takes them (its prompt capabilities). */
  private paste(event: ClipboardEvent): void {
    const files = [...(event.clipboardData?.items ?? [])].filter((item) => item.kind === 'file' && /^(image|audio)\//.test(item.type));
    if (files.length === 0) return;
    const taken = files.filter((item) => (item.type.startsWith('image/') ? this.capabilities.image : !!this.capabilities.audio));
    if (taken.length < files.length) this.hint.textContent = files.some((i) => i.type.startsWith('audio/')) && !this.capabilities.audio ? l10n.t('This agent does not accept audio.') : l10n.t('This agent does not accept images.');
    if (taken.length === 0) return;
    event.preventDefault();
    for (const item of taken) {
      const file = item.getAsFile();
      if (!file) continue;
      const reader = new FileReader();
      reader.addEventListener('load', () => {
        const match = /^data:([^;,]+);base64,(.*)$/.exec(String(reader.result));
        if (!match) return;
        const [, mimeType, data] = match as unknown as [string, string, string];
        if (mimeType.startsWith('audio/')) this.attach([{ kind: 'audio', mimeType, data, label: file.name || l10n.t('Pasted sound {0}', ++this.pastedSounds) }]);
        else this.attach([{ kind: 'image', mimeType, data, label: l10n.t('Pasted image {0}', ++this.pastedImages) }]);
      });
      reader.readAsDataURL(file);
    }
  }

  private renderChips(): void {
    this.chips.hidden = this.attached.length === 0;
    this.chips.replaceChildren(
      ...this.attached.map((entry, index) => {
        const a = entry.attachment;
        const remove = h('button', { type: 'button', class: 'chip-remove', 'aria-label': l10n.t('Remove {0}', a.label), title: l10n.t('Remove') }, icon('close'));
        remove.addEventListener('click', () => {
          this.attached.splice(index, 1);
          this.renderChips();
          this.textarea.focus();
        });
        let preview: HTMLElement = icon(
          a.kind === 'selection' ? 'selection' : a.kind === 'image' ? 'file-media' : a.kind === 'audio' ? 'unmute' : a.kind === 'context' ? (a.source === 'terminal' ? 'terminal' : 'warning') : 'file',
        );
        if (a.kind === 'image') {
          const src = imageDataUri(a.mimeType, a.data);
          if (src) {
            const img = h('img', { class: 'chip-thumb', alt: '' });
            img.src = src;
            preview = img;
          }
        }
        return h('span', { class: 'chip', role: 'listitem', title: a.label }, preview, h('span', { class: 'chip-label' }, revealed(a.label)), remove);
      }),
    );
  }

  private autoGrow(): void {
    // CSSOM, not a style attribute: allowed by the CSP.
    this.textarea.style.height = 'auto';
    this.textarea.style.height = `${Math.min(this.textarea.scrollHeight, MAX_HEIGHT)}px`;
  }
}
