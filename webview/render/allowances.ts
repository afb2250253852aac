import { allowancesLine, terminalWords, writeWords, type AllowanceSetting, type AllowancesView } from '../../src/shared/allowances';
import { h, icon, revealed } from '../dom';
import type { Post } from './contentBlocks';
import * as l10n from '@vscode/l10n';

/**
 * "What the agent may do", between the header and the conversation: the folders it can reach, whether it may read,
 * write and run commands, the MCP servers passed to it, each with a link to the setting that decides it. Open before
 * the first prompt; folded to its one line once the conversation has entries, unless the reader opened it since.
 * Paths and server names come from settings and the workspace, and are put in as text.
 */
export class AllowancesSummary {
  readonly element = h('details', { class: 'allowances' });
  private readonly line = h('span', { class: 'allowances-line' });
  private readonly body = h('div', { class: 'allowances-body' });
  private shown = '';
  private hadEntries: boolean | undefined;
  private sessionKey: string | undefined;
  /** The reader opened or closed it themselves: their choice stands until the conversation changes. */
  private chosen = false;

  constructor(private readonly post: Post) {
    this.element.hidden = true;
    const summary = h('summary', {}, h('span', { class: 'allowances-title' }, icon('shield'), (' ' + l10n.t('The agent may:') + ' ')), this.line);
    this.element.append(summary, this.body);
    summary.addEventListener('click', () => {
      this.chosen = true;
    });
  }

  update(allowances: AllowancesView | undefined, hasEntries: boolean, sessionKey: string | undefined): void {
    if (!allowances) {
      this.element.hidden = true;
      this.shown = '';
      return;
    }
    this.element.hidden = false;
    // Another conversation in front: folded or not by its own entries again.
    if (sessionKey !== this.sessionKey) {
      this.sessionKey = sessionKey;
      this.hadEntries = undefined;
      this.chosen = false;
    }
    const key = JSON.stringify([sessionKey, allowances]);
    if (key !== this.shown) {
      this.shown = key;
      this.line.textContent = allowancesLine(allowances);
      this.body.replaceChildren(...this.rows(allowances));
    }
    if (hasEntries !== this.hadEntries) {
      if (this.hadEntries === undefined || !this.chosen || !hasEntries) this.element.open = !hasEntries;
      if (!hasEntries) this.chosen = false;
      this.hadEntries = hasEntries;
    }
  }

  private rows(a: AllowancesView): HTMLElement[] {
    const link = (setting: AllowanceSetting, label = l10n.t('Settings')) => {
      const b = h('button', { type: 'button', class: 'link-button', title: l10n.t('Open the setting {0}', setting) }, label);
      b.addEventListener('click', () => this.post({ type: 'openSetting', setting }));
      return b;
    };
    const row = (name: string, value: Node | string, ...links: HTMLElement[]) =>
      h('li', {}, h('span', { class: 'allowance-name' }, l10n.t('{0}:', name) + ' '), value, ...links.flatMap((l) => [' ', l]));
    const rules = [a.commandRules.deny && l10n.t('{0} never run', a.commandRules.deny), a.commandRules.ask && l10n.t('{0} always asked', a.commandRules.ask)].filter(Boolean).join(', ');
    const servers = a.mcpServers.length
      ? h('ul', { class: 'allowance-servers' }, ...a.mcpServers.map((s) => h('li', {}, revealed(s.name), ` (${s.transport}${s.own ? l10n.t(', Howdah’s editor context: unsaved buffers, selection, problems') : ''})`)))
      : l10n.t('none');
    return [
      h(
        'ul',
        { class: 'allowance-list' },
        h('li', {}, h('span', { class: 'allowance-name' }, (l10n.t('Folders:') + ' ')), h('ul', { class: 'allowance-folders' }, ...a.folders.map((f) => h('li', {}, revealed(f))))),
        row(l10n.t('Read files through Howdah'), a.read ? l10n.t('yes, unsaved text included') : l10n.t('no'), link('howdah.fs.read')),
        row(l10n.t('Write files'), writeWords(a.write), link('howdah.fs.write')),
        row(l10n.t('Run commands'), rules ? l10n.t('{0} (rules: {1})', terminalWords(a.terminal), rules) : terminalWords(a.terminal), link('howdah.terminal'), link('howdah.commands.deny', l10n.t('Never run')), link('howdah.commands.ask', l10n.t('Always ask'))),
        row(l10n.t('MCP servers'), servers, link('howdah.mcpServers'), link('howdah.editorContext', l10n.t('Editor context'))),
      ),
      h('p', { class: 'allowances-note' }, a.live ? l10n.t('As given to the running agent.') : l10n.t('What the agent gets when it starts, from your settings now.')),
    ];
  }
}
