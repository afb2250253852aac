import type { ToolContentView, ToolView } from '../../src/shared/protocol';
import { h, icon, prose, revealed, terminalText } from '../dom';
import { contentBlock, locationLink, rawDetails, type Post } from './contentBlocks';
import { pathTitle, shownPath } from '../paths';
import { openDiffButton, permissionPrompt } from './permission';
import { toolKindIcon, toolStatus } from './toolIcons';
import * as l10n from '@vscode/l10n';

/** Lines of terminal output shown in a card; the rest is a count. */
const TERMINAL_LINES = 60;

/**
 * A tool call as a compact card. Each part (header, locations, content, permission, raw JSON) is rebuilt only when
 * its data changed, so a streaming terminal does not reset an open "raw input" or move the focus off a button.
 */
export class ToolCard {
  readonly element: HTMLElement;
  private readonly parts = new Map<string, { key: string; element: HTMLElement }>();
  /** Set when a permission prompt appeared in this update: the caller may move the focus to it. */
  newPermission = false;

  constructor(private readonly post: Post) {
    this.element = h('article', { class: 'tool' });
  }

  update(tool: ToolView): void {
    const waiting = tool.permission !== undefined;
    const status = waiting ? 'waiting' : tool.status;
    this.element.className = `tool status-${status.replace(/[^a-z_]/gi, '')}`;
    this.element.setAttribute('aria-label', l10n.t('Tool call: {0}', tool.title));
    this.part('header', [tool.title, tool.kind, status], () => this.header(tool, status));
    this.part('command', [tool.command, tool.title, tool.kind], () =>
      tool.command && tool.command !== tool.title ? h('div', { class: 'tool-command' }, h('span', { class: 'prompt-sign', 'aria-hidden': 'true' }, '$ '), h('code', {}, revealed(tool.command))) : undefined,
    );
    this.part('locations', tool.locations, () =>
      tool.locations.length > 0 ? h('div', { class: 'tool-locations' }, ...tool.locations.map((l) => locationLink(l, this.post))) : undefined,
    );
    this.part('content', tool.content, () =>
      tool.content.length > 0 ? h('div', { class: 'tool-content' }, ...tool.content.map((c, i) => this.content(tool.toolCallId, c, i))) : undefined,
    );
    const previousPermission = this.parts.get('permission')?.key;
    this.part('permission', [tool.permission?.requestId, tool.permission?.options], () => (tool.permission ? permissionPrompt(tool, this.post) : undefined));
    this.newPermission = waiting && this.parts.get('permission')?.key !== previousPermission;
    this.part('answer', tool.answer ?? null, () => answerLine(tool.answer));
    this.part('refused', tool.writtenAfterRefusal ?? null, () => refusedWrites(tool.writtenAfterRefusal));
    this.part('raw', [tool.rawInput, tool.rawOutput], () => {
      if (tool.rawInput === undefined && tool.rawOutput === undefined) return undefined;
      return h(
        'div',
        { class: 'tool-raw' },
        tool.rawInput !== undefined && rawDetails(l10n.t('Raw input'), tool.rawInput),
        tool.rawOutput !== undefined && rawDetails(l10n.t('Raw output'), tool.rawOutput),
      );
    });
  }

  /** The first option button of a waiting prompt. */
  firstOption(): HTMLButtonElement | null {
    return this.element.querySelector('.permission-option');
  }

  private header(tool: ToolView, status: string): HTMLElement {
    const shown = toolStatus(status);
    return h(
      'div',
      { class: 'tool-header' },
      h('span', { class: 'tool-kind', title: tool.kind }, icon(toolKindIcon(tool.kind))),
      h('span', { class: 'tool-title' }, revealed(tool.title)),
      h('span', { class: 'tool-status' }, icon(shown.icon), h('span', { class: 'tool-status-label' }, prose(shown.label))),
    );
  }

  private content(toolCallId: string, content: ToolContentView, index: number): HTMLElement {
    switch (content.type) {
      case 'content':
        return contentBlock(content.content, this.post);
      case 'diff':
        return h(
          'div',
          { class: 'diff-summary' },
          icon(content.newFile ? 'new-file' : 'diff'),
          ' ',
          h('span', { class: 'diff-path', title: pathTitle(content.path) }, revealed(shownPath(content.path).text)),
          ' ',
          h('span', { class: 'diff-added', 'aria-label': l10n.t('{0} lines added', content.added) }, `+${content.added}`),
          ' ',
          h('span', { class: 'diff-removed', 'aria-label': l10n.t('{0} lines removed', content.removed) }, `−${content.removed}`),
          content.newFile ? h('span', { class: 'diff-new' }, (' ' + l10n.t('new file'))) : null,
          ' ',
          openDiffButton(toolCallId, index, content.path, this.post, content.untied),
          content.untied
            ? h('div', { class: 'diff-untied', role: 'note' }, icon('warning'), ' ', prose(l10n.t('Not in Agent Changes: no change on disk matches this diff, so there is nothing to accept or reject.')))
            : null,
        );
      case 'terminal':
        return terminalView(content, this.post);
      case 'unknown':
        return rawDetails(l10n.t('Unrecognised tool content'), content.raw);
    }
  }

  /** Rebuilds one part when its data changed (compared as JSON), keeping its place in the card. */
  private part(name: string, data: unknown, build: () => HTMLElement | undefined): void {
    const key = JSON.stringify(data) ?? '';
    const existing = this.parts.get(name);
    if (existing && existing.key === key) return;
    const fresh = build() ?? h('div', { class: 'empty-part', hidden: true });
    if (existing) existing.element.replaceWith(fresh);
    else this.element.append(fresh);
    this.parts.set(name, { key, element: fresh });
  }
}

function terminalView(content: Extract<ToolContentView, { type: 'terminal' }>, post: Post): HTMLElement {
  const lines = content.output.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const hidden = lines.length - TERMINAL_LINES;
  const shown = hidden > 0 ? lines.slice(hidden) : lines;
  const exit = content.exit;
  const status = exit
    ? exit.signal
      ? h('span', { class: 'terminal-exit failed' }, prose(l10n.t('killed by {0}', exit.signal)))
      : h('span', { class: `terminal-exit ${exit.code === 0 ? 'ok' : 'failed'}` }, icon(exit.code === 0 ? 'pass' : 'error'), (' ' + l10n.t('exit code {0}', exit.code ?? '?')))
    : content.running === false
      ? h('span', { class: 'terminal-exit' }, l10n.t('ended'))
      : h('span', { class: 'terminal-running' }, icon('loading', 'codicon-modifier-spin'), (' ' + l10n.t('running')));
  let open: HTMLButtonElement | null = null;
  if (content.openable) {
    open = h('button', { type: 'button', class: 'secondary small terminal-open', 'aria-label': l10n.t('Open in terminal'), title: l10n.t('Show the whole output in a terminal') }, icon('link-external'));
    open.addEventListener('click', () => post({ type: 'openTerminal', terminalId: content.terminalId }));
  }
  return h(
    'div',
    { class: 'terminal' },
    h('div', { class: 'terminal-header' }, icon('terminal'), (' ' + l10n.t('Output') + ' '), status, open),
    hidden > 0 || content.truncated ? h('div', { class: 'terminal-more' }, hidden > 0 ? l10n.t('… {0} lines not shown', hidden) : l10n.t('… earlier lines not shown')) : null,
    h('pre', { class: 'terminal-output', tabindex: 0, 'aria-label': l10n.t('Command output') }, terminalText(shown.join('\n'))),
  );
}

/** Files the agent wrote although its write was refused: they are in Agent Changes like any other change. */
function refusedWrites(paths: readonly string[] | undefined): HTMLElement | undefined {
  if (!paths?.length) return undefined;
  return h(
    'div',
    { class: 'tool-refused-write', role: 'note' },
    icon('warning'),
    ' ',
    prose((l10n.t('The agent wrote') + ' ')),
    ...paths.flatMap((p, i) => [i > 0 ? ', ' : '', h('span', { class: 'diff-path', title: pathTitle(p) }, revealed(shownPath(p).text))]),
    prose((' ' + l10n.t('itself although the write was refused. The change is in Agent Changes, to reject.'))),
  );
}

function answerLine(answer: ToolView['answer']): HTMLElement | undefined {
  if (!answer) return undefined;
  if (answer === 'cancelled') return h('div', { class: 'tool-answer' }, icon('debug-stop'), (' ' + l10n.t('Permission request cancelled')));
  return h('div', { class: 'tool-answer' }, icon(answer.kind.startsWith('reject') ? 'circle-slash' : 'check'), (' ' + l10n.t('You chose') + ' '), h('q', { class: 'agent-words' }, revealed(answer.name)));
}
