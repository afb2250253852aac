import type { EntryView } from '../../src/shared/protocol';
import { h, icon, prose, revealed } from '../dom';
import { pathTitle, shownPath } from '../paths';
import type { BlockVirtualizer } from '../markdown/blockVirtualizer';
import { StreamingMarkdown } from '../markdown/streamingMarkdown';
import type { GapChange } from '../store';
import { contentBlock, rawDetails, type Post } from './contentBlocks';
import { branchControl } from './branchControl';
import { CompactionEntry } from './compaction';
import { ElicitationCard } from './elicitation';
import { editMessageButton } from './messageEdit';
import { FloodGapView } from './floodGap';
import { ToolCard } from './toolCard';
import * as l10n from '@vscode/l10n';

/** One transcript entry on screen; updated in place as the host patches it. */
export interface EntryRenderer {
  readonly kind: EntryView['kind'];
  readonly element: HTMLElement;
  /**
   * `appended`: the entry's text grew by exactly these pieces since the last update (else read the whole entry);
   * `gap`: what happened to its gap meanwhile, if it has one (an answer flooding in).
   */
  update(entry: EntryView, appended?: readonly string[], gap?: GapChange): void;
  /** Live = the last entry while the turn runs (a message still streaming, a thought still thinking). */
  setLive(live: boolean): void;
  /** Streamed text waits to be rendered (more than a frame's share): `drain` renders the next share. */
  readonly backlog?: boolean;
  drain?(): void;
  /** A message's first `max` characters, read without the rest of it (see StreamingMarkdown.head). */
  head?(max: number): string;
  /** An answer flooding in: its gap opened, moved, grew or closed (store.ts). */
  updateGap?(change: GapChange): void;
}

export function createEntryRenderer(entry: EntryView, post: Post, virtualizer?: BlockVirtualizer): EntryRenderer {
  switch (entry.kind) {
    case 'agent':
      return new AgentMessage(post, virtualizer);
    case 'user':
      return new Static('user', (e) => userMessage(e as Extract<EntryView, { kind: 'user' }>, post));
    case 'thought':
      return new Thought();
    case 'tool':
      return new ToolEntry(post);
    case 'elicitation':
      return new ElicitationEntry(post);
    case 'compaction':
      return new CompactionEntry(post);
    default:
      return new Static(entry.kind, (e) => simpleEntry(e, post));
  }
}

class AgentMessage implements EntryRenderer {
  readonly kind = 'agent';
  readonly element = h('div', { class: 'entry agent' }, h('span', { class: 'sr-only' }, l10n.t('Agent:')));
  private readonly body: StreamingMarkdown;
  private readonly blocks = h('div', { class: 'blocks' });
  private blocksKey = '';
  private entryId = -1;
  private live = false;
  /** While the answer floods in: the gap for the text on its way, and the newest text after it. */
  private flood: FloodGapView | undefined;

  constructor(
    private readonly post: Post,
    private readonly virtualizer?: BlockVirtualizer,
  ) {
    this.body = new StreamingMarkdown('md', virtualizer);
    const regenerate = h('button', { type: 'button', class: 'icon-button regenerate', 'aria-label': l10n.t('Regenerate'), title: REGENERATE_LABEL }, icon('refresh'));
    regenerate.addEventListener('click', () => this.entryId >= 0 && post({ type: 'regenerate', entryId: this.entryId }));
    this.element.append(this.body.element, this.blocks, h('div', { class: 'answer-actions' }, regenerate, forkButton(post, () => this.entryId)));
  }

  update(entry: EntryView, appended?: readonly string[], gap?: GapChange): void {
    if (entry.kind !== 'agent') return;
    this.entryId = entry.id;
    if (appended) {
      for (const [i, delta] of appended.entries()) {
        if (i === gap?.joined && this.flood) {
          // The newest text, shown after the gap, joins the text before it as it is on the page (with what came of it
          // in this frame first, so the view holds what the store does).
          this.flood.update(gap);
          if (this.flood.joinInto(this.body, delta)) {
            this.flood = undefined;
            continue;
          }
        }
        this.body.append(delta);
      }
    } else this.body.setText(entry.text);
    const key = JSON.stringify(entry.blocks);
    if (key !== this.blocksKey) {
      this.blocksKey = key;
      this.blocks.replaceChildren(...entry.blocks.map((b) => contentBlock(b, this.post)));
    }
  }

  updateGap(change: GapChange): void {
    if (change.closed) {
      // the newest text came with the last fill, into the answer's own text
      this.flood?.remove();
      this.flood = undefined;
      return;
    }
    if (!this.flood) {
      this.flood = new FloodGapView(this.virtualizer);
      this.flood.setLive(this.live);
      this.body.element.after(this.flood.element);
    }
    this.flood.update(change);
  }

  setLive(live: boolean): void {
    this.live = live;
    this.element.classList.toggle('live', live);
    this.body.setLive(live);
    this.flood?.setLive(live);
  }

  get backlog(): boolean {
    return this.body.backlog || (this.flood?.backlog ?? false);
  }

  drain(): void {
    this.body.drain();
    this.flood?.drain();
  }

  head(max: number): string {
    return this.body.head(max);
  }
}

class Thought implements EntryRenderer {
  readonly kind = 'thought';
  private readonly summary = h('summary', {});
  readonly element: HTMLDetailsElement = h('details', { class: 'entry thought' }, this.summary);
  private body: StreamingMarkdown | undefined;
  private text = '';

  constructor() {
    this.setLive(false);
    // Rendered only when opened: a folded thought costs two nodes.
    this.element.addEventListener('toggle', () => {
      if (this.element.open && !this.body) {
        this.body = new StreamingMarkdown('md thought-body');
        this.element.append(this.body.element);
        this.body.setText(this.text);
      }
    });
  }

  update(entry: EntryView, appended?: readonly string[]): void {
    if (entry.kind !== 'thought') return;
    this.text = entry.text;
    if (appended && this.body) for (const delta of appended) this.body.append(delta);
    else this.body?.setText(entry.text);
  }

  get backlog(): boolean {
    return this.body?.backlog ?? false;
  }

  drain(): void {
    this.body?.drain();
  }

  setLive(live: boolean): void {
    this.summary.replaceChildren(live ? icon('loading', 'codicon-modifier-spin') : icon('lightbulb'), live ? (' ' + l10n.t('Thinking…')) : (' ' + l10n.t('Thought')));
  }
}

class ToolEntry implements EntryRenderer {
  readonly kind = 'tool';
  readonly card: ToolCard;
  readonly element: HTMLElement;

  constructor(post: Post) {
    this.card = new ToolCard(post);
    this.element = h('div', { class: 'entry tool-entry' }, this.card.element);
  }

  update(entry: EntryView): void {
    if (entry.kind === 'tool') this.card.update(entry.tool);
  }

  setLive(): void {}
}

/** An agent's question: the card keeps what the user types across updates. */
export class ElicitationEntry implements EntryRenderer {
  readonly kind = 'elicitation';
  readonly card: ElicitationCard;
  readonly element: HTMLElement;

  constructor(post: Post) {
    this.card = new ElicitationCard(post);
    this.element = h('div', { class: 'entry elicitation-entry' }, this.card.element);
  }

  update(entry: EntryView): void {
    if (entry.kind === 'elicitation') this.card.update(entry.elicitation);
  }

  setLive(): void {}
}

/** Entries that are rebuilt whole when they change (they rarely do). */
class Static implements EntryRenderer {
  readonly element = h('div', { class: 'entry' });

  constructor(
    readonly kind: EntryView['kind'],
    private readonly build: (entry: EntryView) => HTMLElement,
  ) {}

  update(entry: EntryView): void {
    const fresh = this.build(entry);
    this.element.className = fresh.className;
    this.element.replaceChildren(...fresh.childNodes);
    for (const name of ['role', 'aria-label']) {
      const value = fresh.getAttribute(name);
      if (value === null) this.element.removeAttribute(name);
      else this.element.setAttribute(name, value);
    }
  }

  setLive(): void {}
}

function userMessage(entry: Extract<EntryView, { kind: 'user' }>, post: Post): HTMLElement {
  // The host finds the checkpoint of this message's turn, and asks before touching any file.
  const restore = h(
    'button',
    { type: 'button', class: 'icon-button restore-checkpoint', 'aria-label': RESTORE_LABEL, title: RESTORE_LABEL },
    icon('history'),
  );
  restore.addEventListener('click', () => post({ type: 'restoreCheckpoint', entryId: entry.id }));
  return h(
    'div',
    { class: entry.refused ? 'entry user refused' : 'entry user' },
    h('span', { class: 'sr-only' }, l10n.t('You:')),
    // The user's own words, as typed: plain text, not Markdown.
    h('div', { class: 'user-text' }, prose(entry.text)),
    entry.refused ? h('div', { class: 'refused-note' }, icon('circle-slash'), ' ', prose(REFUSED_NOTE)) : null,
    entry.attachments.length > 0 ? h('div', { class: 'user-attachments' }, ...entry.attachments.map((a) => contentBlock(a, post))) : null,
    h('div', { class: 'entry-actions' }, editMessageButton(post, entry.id, entry.text), forkButton(post, () => entry.id), restore),
    entry.branch ? branchControl(post, entry.id, entry.branch) : null,
  );
}

const RESTORE_LABEL = l10n.t('Restore files to before this message');
const REFUSED_NOTE = l10n.t('The agent refused this message: it is not part of the agent’s context.');
const REGENERATE_LABEL = l10n.t('Regenerate: restore the files to before the message this answers and send it again, in a new tab');
const FORK_LABEL = l10n.t('Fork from here: a new conversation that continues from this message');

/** "Fork from here": the host starts a new conversation with the same agent, carrying the conversation up to here. */
function forkButton(post: Post, entryId: () => number): HTMLElement {
  const button = h('button', { type: 'button', class: 'icon-button fork-here', 'aria-label': l10n.t('Fork from here'), title: FORK_LABEL }, icon('repo-forked'));
  button.addEventListener('click', () => {
    if (entryId() >= 0) post({ type: 'fork', entryId: entryId() });
  });
  return button;
}

const STOP_REASONS: Record<string, string> = {
  cancelled: l10n.t('Stopped: the turn was cancelled.'),
  max_tokens: l10n.t('The agent stopped: it reached its token limit.'),
  max_turn_requests: l10n.t('The agent stopped: it reached its limit of model requests for one turn.'),
  refusal: l10n.t('The agent refused to continue: your message and this answer are not part of its context; the next message starts from before them.'),
};

function simpleEntry(entry: EntryView, post: Post): HTMLElement {
  switch (entry.kind) {
    case 'notice':
      return h(
        'div',
        { class: `entry notice severity-${entry.severity.replace(/[^a-z]/gi, '')}`, role: 'note' },
        icon(entry.severity === 'error' ? 'error' : entry.severity === 'warning' ? 'warning' : 'info'),
        ' ',
        h('span', { class: 'notice-title' }, prose(entry.title)),
        entry.description ? h('div', { class: 'notice-description' }, prose(entry.description)) : null,
      );
    case 'error': {
      const retry = entry.retryable ? h('button', { type: 'button', class: 'secondary small', 'aria-label': l10n.t('Retry') }, icon('refresh'), (' ' + l10n.t('Retry'))) : null;
      retry?.addEventListener('click', () => post({ type: 'retry' }));
      return h(
        'div',
        { class: 'entry error' },
        h('div', { class: 'error-message' }, icon('error'), ' ', prose(entry.message)),
        entry.detail ? rawDetails(l10n.t('Details'), entry.detail) : null,
        retry,
      );
    }
    case 'turn-end': {
      const unrecorded = entry.unrecorded?.length ? unrecordedNote(entry.unrecorded) : null;
      const tokens = entry.tokens ? h('div', { class: 'turn-tokens' }, tokenLine(entry.tokens)) : null;
      if (entry.stopReason === 'end_turn') return h('div', { class: unrecorded || tokens ? 'entry turn-end' : 'entry turn-end quiet' }, tokens, unrecorded);
      return h(
        'div',
        { class: 'entry turn-end' },
        icon(entry.stopReason === 'cancelled' ? 'debug-stop' : 'info'),
        ' ',
        STOP_REASONS[entry.stopReason] ?? prose(l10n.t('The turn ended: {0}.', entry.stopReason.replace(/_/g, ' '))),
        tokens,
        unrecorded,
      );
    }
    case 'unknown':
      return h('div', { class: 'entry unknown' }, icon('question'), ' ', prose(l10n.t('Unrecognised update ({0})', entry.label)), rawDetails(l10n.t('Raw JSON'), entry.raw));
    default:
      return h('div', { class: 'entry' });
  }
}

/** "1,234 tokens in · 56 out (7 thinking, 1,000 from cache)": the counts the agent gave for the turn. */
export function tokenLine(tokens: NonNullable<Extract<EntryView, { kind: 'turn-end' }>['tokens']>): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const extra = [tokens.thought !== undefined ? l10n.t('{0} thinking', n(tokens.thought)) : '', tokens.cachedRead !== undefined ? l10n.t('{0} from cache', n(tokens.cachedRead)) : ''].filter(Boolean);
  return extra.length ? l10n.t('{0} tokens in · {1} out ({2})', n(tokens.input), n(tokens.output), extra.join(', ')) : l10n.t('{0} tokens in · {1} out', n(tokens.input), n(tokens.output));
}

/** The turn's footer line for files it changed whose original Howdah could not record: they cannot be rejected. */
function unrecordedNote(files: readonly { path: string; why: string }[]): HTMLElement {
  const n = files.length;
  return h(
    'details',
    { class: 'turn-unrecorded' },
    h('summary', {}, icon('warning'), ' ', prose(n === 1 ? l10n.t('1 file changed without a recorded original: Reject cannot restore it.') : l10n.t('{0} files changed without a recorded original: Reject cannot restore them.', n))),
    h('ul', {}, ...files.map((f) => h('li', {}, h('span', { class: 'diff-path', title: pathTitle(f.path) }, revealed(shownPath(f.path).text)), ' — ', prose(f.why)))),
  );
}
