import { h, icon } from '../dom';
import type { Post } from './contentBlocks';
import * as l10n from '@vscode/l10n';

/**
 * "Branch 1 of 2" with Previous branch / Next branch, on a user message that was edited: each branch is a
 * conversation of its own, and switching shows it in place of this one (the host does; this only asks).
 */
export function branchControl(post: Post, entryId: number, branch: { readonly index: number; readonly total: number }): HTMLElement {
  const step = (direction: -1 | 1, name: string, codicon: string, enabled: boolean) => {
    const button = h('button', { type: 'button', class: 'icon-button', 'aria-label': name, title: name }, icon(codicon));
    if (enabled) button.addEventListener('click', () => post({ type: 'switchBranch', entryId, direction }));
    else button.setAttribute('aria-disabled', 'true');
    return button;
  };
  const text = l10n.t('Branch {0} of {1}', branch.index, branch.total);
  return h(
    'div',
    { class: 'branch-control', role: 'group', 'aria-label': l10n.t('{0} of this message', text) },
    step(-1, l10n.t('Previous branch'), 'chevron-left', branch.index > 1),
    h('span', { class: 'branch-label' }, text),
    step(1, l10n.t('Next branch'), 'chevron-right', branch.index < branch.total),
  );
}
