import type { EntryView } from '../../src/shared/protocol';
import { h, icon, prose } from '../dom';
import { StreamingMarkdown } from '../markdown/streamingMarkdown';
import { contentBlock, type Post } from './contentBlocks';
import * as l10n from '@vscode/l10n';

type Compaction = Extract<EntryView, { kind: 'compaction' }>;

const LABELS: Record<string, [iconName: string, text: string]> = {
  in_progress: ['loading', l10n.t('Compacting context…')],
  completed: ['fold', l10n.t('Context compacted')],
  failed: ['error', l10n.t('Context compaction failed')],
  cancelled: ['debug-stop', l10n.t('Context compaction cancelled')],
};

/**
 * A context compaction in the timeline: one line saying where it stands, the summary the agent wrote folded under
 * it (rendered only when opened, like a thought), and why it failed. An EntryRenderer (entries.ts), structurally.
 */
export class CompactionEntry {
  readonly kind = 'compaction';
  private readonly summary = h('summary', {});
  private readonly error = h('div', { class: 'compaction-error', hidden: true });
  private readonly blocks = h('div', { class: 'blocks' });
  readonly element: HTMLDetailsElement = h('details', { class: 'entry compaction', role: 'group' }, this.summary, this.error);
  private body: StreamingMarkdown | undefined;
  private text = '';
  private shown = '';

  constructor(private readonly post: Post) {
    this.element.addEventListener('toggle', () => {
      if (this.element.open && !this.body) {
        this.body = new StreamingMarkdown('md compaction-body');
        this.element.append(this.body.element, this.blocks);
        this.body.setText(this.text);
      }
    });
  }

  update(entry: EntryView): void {
    if (entry.kind !== 'compaction') return;
    const c = entry as Compaction;
    const key = JSON.stringify([c.status, c.error, c.blocks]);
    if (key !== this.shown) {
      this.shown = key;
      const [iconName, text] = LABELS[c.status] ?? ['info', l10n.t('Context compaction: {0}', c.status)];
      const empty = c.text === '' && c.blocks.length === 0;
      this.summary.replaceChildren(icon(iconName, c.status === 'in_progress' ? 'codicon-modifier-spin' : ''), ' ', prose(text), empty ? '' : h('span', { class: 'compaction-hint' }, (' ' + l10n.t('(summary)'))));
      this.error.hidden = c.error === undefined;
      this.error.replaceChildren(c.error === undefined ? '' : prose(c.error));
      this.blocks.replaceChildren(...c.blocks.map((b) => contentBlock(b, this.post)));
    }
    this.text = c.text;
    this.body?.setText(c.text);
  }

  setLive(): void {}
}
