import { checkLink } from '../../src/shared/linkSafety';
import { h, icon, revealed } from '../dom';
import * as l10n from '@vscode/l10n';

/**
 * A link the agent asks the user to open (URL-mode elicitation): shown in full, never fetched or previewed, never
 * clickable as a link; the host emphasised, the warnings above it. Open means "I agree to open it" (the host opens
 * it in the external browser); Decline and Cancel answer without opening. Escape is Cancel.
 */
export function linkCard(url: string, answer: (action: 'accept' | 'decline' | 'cancel') => void): HTMLElement {
  const check = checkLink(url);
  const parts = check.parts;
  const shown = parts
    ? h(
        'code',
        { class: 'elicitation-url' },
        revealed(`${parts.scheme}://`),
        parts.userinfo !== undefined ? h('span', { class: 'url-userinfo' }, revealed(`${parts.userinfo}@`)) : null,
        h('strong', { class: 'url-host' }, revealed(parts.host)),
        parts.port ? revealed(`:${parts.port}`) : null,
        revealed(parts.rest),
      )
    : h('code', { class: 'elicitation-url' }, revealed(url));
  const open = h('button', { type: 'button', class: 'elicitation-open', disabled: !check.openable, title: check.openable ? l10n.t('Open in your browser') : undefined }, icon('link-external'), (' ' + l10n.t('Open')));
  const decline = h('button', { type: 'button', class: 'secondary elicitation-decline' }, icon('circle-slash'), (' ' + l10n.t('Decline')));
  const cancel = h('button', { type: 'button', class: 'secondary elicitation-cancel', title: l10n.t('Dismiss without answering (Escape)') }, icon('close'), (' ' + l10n.t('Cancel')));
  open.addEventListener('click', () => answer('accept'));
  decline.addEventListener('click', () => answer('decline'));
  cancel.addEventListener('click', () => answer('cancel'));
  const card = h(
    'div',
    { class: 'elicitation-link' },
    h('div', { class: 'elicitation-link-label' }, l10n.t('It asks you to open this link in your browser:')),
    shown,
    parts ? h('div', { class: 'elicitation-link-host' }, (l10n.t('Host:') + ' '), h('strong', { class: 'url-host' }, revealed(parts.host))) : null,
    check.warnings.length ? h('div', { role: 'note', 'aria-label': l10n.t('Warnings about this link') }, h('ul', { class: 'elicitation-warning' }, ...check.warnings.map((w) => h('li', {}, icon('warning'), ' ', w)))) : null,
    h('div', { class: 'elicitation-actions' }, open, decline, cancel),
  );
  card.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || cancel.disabled) return;
    event.preventDefault();
    event.stopPropagation();
    answer('cancel');
  });
  return card;
}
