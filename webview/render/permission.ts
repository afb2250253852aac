import type { PermissionOptionView, ToolView } from '../../src/shared/protocol';
import { h, humanize, icon, prose, revealed } from '../dom';
import { pathTitle, shownPath } from '../paths';
import { fullPath, locationLink, type Post } from './contentBlocks';
import { toolKindIcon } from './toolIcons';
import * as l10n from '@vscode/l10n';

/**
 * A permission prompt, inline at its tool call. It says what would happen in our words (operation kind, command and
 * paths in full, the changes) and quotes the agent's words (title, option names) as such, with every hidden character
 * shown. One button per option; each button's accessible name is exactly the option's name.
 */
export function permissionPrompt(tool: ToolView, post: Post): HTMLElement {
  const permission = tool.permission;
  if (!permission) return h('div');
  const headingId = `perm-${cssId(tool.toolCallId)}-${permission.requestId}`;
  const what = h(
    'dl',
    { class: 'permission-facts' },
    h('dt', {}, l10n.t('Operation')),
    h('dd', {}, icon(toolKindIcon(tool.kind)), ' ', prose(humanize(tool.kind))),
    h('dt', {}, l10n.t('Agent’s description')),
    h('dd', { class: 'agent-words' }, h('q', {}, revealed(tool.title))),
  );
  if (tool.command) what.append(h('dt', {}, l10n.t('Command')), h('dd', {}, h('code', { class: 'permission-command' }, revealed(tool.command))));
  // Paths relative to the workspace, each with its full path in small print (once per path).
  const inFull = new Set(tool.locations.map((l) => l.path));
  if (tool.locations.length > 0) {
    what.append(h('dt', {}, tool.locations.length === 1 ? l10n.t('File') : l10n.t('Files')), h('dd', { class: 'permission-paths' }, ...tool.locations.map((l) => locationLink(l, post, true))));
  }
  for (const [index, content] of tool.content.entries()) {
    if (content.type === 'diff') {
      const shown = shownPath(content.path);
      const full = shown.relative && !inFull.has(content.path) ? fullPath(content.path) : null;
      inFull.add(content.path);
      what.append(
        h('dt', {}, content.newFile ? l10n.t('Creates') : l10n.t('Changes')),
        h(
          'dd',
          {},
          h('code', { title: pathTitle(content.path) }, revealed(shown.text)),
          ` (+${content.added} −${content.removed}) `,
          openDiffButton(tool.toolCallId, index, content.path, post),
          full,
        ),
      );
    }
  }
  const options = h('div', { class: 'permission-options', role: 'group', 'aria-label': l10n.t('Options offered by the agent') });
  for (const option of permission.options) options.append(optionButton(tool.toolCallId, option, post));
  return h(
    'div',
    { class: 'permission', role: 'group', 'aria-labelledby': headingId },
    h('div', { class: 'permission-heading', id: headingId }, icon('shield'), (' ' + l10n.t('The agent asks for permission'))),
    what,
    h('div', { class: 'permission-caption' }, l10n.t('Options, in the agent’s words:')),
    options,
  );
}

function optionButton(toolCallId: string, option: PermissionOptionView, post: Post): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: `permission-option ${optionClass(option.kind)}`, 'aria-label': option.name, 'data-option-id': option.optionId, title: `${humanize(option.kind)}` },
    icon(optionIcon(option.kind)),
    h('span', { class: 'agent-words' }, revealed(option.name)),
  );
  button.addEventListener('click', () => {
    // Once is enough: the host ignores a second answer, and the prompt is replaced by the answer.
    button.closest('.permission-options')?.querySelectorAll('button').forEach((b) => (b.disabled = true));
    post({ type: 'permission', toolCallId, optionId: option.optionId });
  });
  return button;
}

export function openDiffButton(toolCallId: string, index: number, path: string, post: Post, untied = false): HTMLButtonElement {
  const name = path.split(/[\\/]/).pop() || path;
  // Untied: no change on disk to review, so the button shows only what the agent said it did.
  const button = untied
    ? h('button', { type: 'button', class: 'secondary small', 'aria-label': l10n.t('Show the diff the agent reported for {0}', name) }, icon('eye'), (' ' + l10n.t('Show reported diff')))
    : h('button', { type: 'button', class: 'secondary small', 'aria-label': l10n.t('Open diff of {0}', name) }, icon('diff'), (' ' + l10n.t('Open diff')));
  button.addEventListener('click', () => post({ type: 'openDiff', toolCallId, index }));
  return button;
}

function optionClass(kind: string): string {
  if (kind === 'allow_once') return 'allow-once';
  if (kind === 'allow_always') return 'allow-always';
  if (kind === 'reject_always') return 'reject-always';
  if (kind === 'reject_once') return 'reject-once';
  return 'other-option';
}

function optionIcon(kind: string): string {
  if (kind === 'allow_once') return 'check';
  if (kind === 'allow_always') return 'check-all';
  if (kind === 'reject_always') return 'circle-slash';
  if (kind === 'reject_once') return 'close';
  return 'question';
}

function cssId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}
