import type { PlanEntryView, TurnView } from '../../src/shared/protocol';
import { h, humanize, icon, prose } from '../dom';
import * as l10n from '@vscode/l10n';

const STATUS_ICONS: Record<string, string> = {
  pending: 'circle-large-outline',
  in_progress: 'loading codicon-modifier-spin',
  completed: 'pass',
};

/**
 * The agent's plan, pinned above the prompt: open while the turn runs, folded to a one-line summary when idle.
 * The plan is the agent's text, shown as plain text.
 */
export class PlanView {
  readonly element: HTMLDetailsElement;
  private readonly summary = h('summary', {});
  private readonly list = h('ol', { class: 'plan-entries' });
  private wasRunning = false;

  constructor() {
    this.element = h('details', { class: 'plan', 'aria-label': l10n.t('Plan') }, this.summary, this.list);
    this.element.hidden = true;
  }

  update(plan: readonly PlanEntryView[], turn: TurnView): void {
    this.element.hidden = plan.length === 0;
    const done = plan.filter((p) => p.status === 'completed').length;
    this.summary.replaceChildren(icon('checklist'), (' ' + l10n.t('Plan · {0}/{1} done', done, plan.length)));
    this.list.replaceChildren(
      ...plan.map((entry) =>
        h(
          'li',
          { class: `plan-entry status-${entry.status.replace(/[^a-z_]/gi, '')}` },
          h('span', { class: 'plan-status' }, icon(STATUS_ICONS[entry.status] ?? 'circle-large-outline'), h('span', { class: 'sr-only' }, prose(`${humanize(entry.status)}: `))),
          h('span', { class: 'plan-content' }, prose(entry.content)),
          entry.priority ? h('span', { class: `plan-priority priority-${entry.priority.replace(/[^a-z]/gi, '')}` }, prose(entry.priority)) : null,
        ),
      ),
    );
    // Opens when a turn starts and folds when it ends; in between the reader decides.
    const running = turn !== 'idle';
    if (running !== this.wasRunning) this.element.open = running;
    this.wasRunning = running;
  }
}
