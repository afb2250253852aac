import type { EntryView } from '../../src/shared/protocol';
import { ANNOUNCED_SOURCE, type Announcer } from '../announcer';
import { h, icon } from '../dom';
import { BlockVirtualizer } from '../markdown/blockVirtualizer';
import { beginFrame, endFrame } from '../markdown/frameBudget';
import type { GapChange, StoreChanges, TranscriptStore } from '../store';
import type { Post } from './contentBlocks';
import { createEntryRenderer, ElicitationEntry, type EntryRenderer } from './entries';
import { ToolCard } from './toolCard';
import * as l10n from '@vscode/l10n';

/** Entries rendered at first and added per "Show earlier"; the DOM holds at most twice this while following the end. */
export const WINDOW = 40;
/** Entries the page keeps in its store before the rendered ones; older ones are let go (the host has them). */
export const KEEP_BEFORE = 4 * WINDOW;
/** How close to the end (px) still counts as "at the bottom" for auto-scroll. */
const STICK_SLACK = 40;

/**
 * The conversation. Only a window of the latest entries is in the DOM (older ones behind "Show earlier"), so a
 * transcript of thousands of entries stays a few thousand nodes; the page itself holds only the tail the host sent,
 * and "Show earlier" past it asks the host for the previous page. Follows the end while the reader is at the bottom;
 * a reader who scrolled up stays where they are. Announces each agent message once it is complete.
 */
export class Transcript {
  readonly element: HTMLElement;
  private readonly list = h('div', { class: 'entries' });
  private readonly earlier: HTMLButtonElement;
  private readonly welcome = h('div', { class: 'welcome' });
  private start = 0;
  private earlierShown = -1;
  /** "Show earlier" asked the host for entries before this index and waits for them. */
  private loadingBefore = -1;
  private renderers: EntryRenderer[] = [];
  private liveIndex = -1;
  private following = true;
  private followFrame: number | undefined;
  /** The scroll height at the last followEnd, to tell when the content shrank under a reader at the end. */
  private followedHeight = 0;
  /** The scroll position at the last scroll event, to tell a scroll up from the page growing under it. */
  private lastTop = 0;
  /** Entries whose streamed text waits to be rendered, a frame's share at a time. */
  private readonly backlogged = new Set<EntryRenderer>();
  /** Long messages' completed groups far from the viewport become placeholders (see blockVirtualizer.ts). */
  readonly virtualizer: BlockVirtualizer;

  constructor(
    private readonly store: TranscriptStore,
    private readonly post: Post,
    private readonly announcer: Announcer,
  ) {
    this.earlier = h('button', { type: 'button', class: 'show-earlier secondary' });
    this.earlier.addEventListener('click', () => this.showEarlier());
    this.element = h('section', { class: 'transcript', 'aria-label': l10n.t('Conversation'), tabindex: -1 }, this.earlier, this.list, this.welcome);
    this.virtualizer = new BlockVirtualizer(this.element);
    this.element.addEventListener('focusin', (event) => this.virtualizer.focused(event.target));
    // A copy across placeholders gets the text the rendered blocks would give (see BlockVirtualizer.selectedText).
    this.element.addEventListener('copy', (event) => {
      const text = this.virtualizer.selectedText(this.element);
      if (text === undefined || !event.clipboardData) return;
      event.clipboardData.setData('text/plain', text);
      event.preventDefault();
    });
    // Only the reader's own scroll up lets go of the end. A scroll event is dispatched a frame after the scroll, and
    // by then the page may have grown (streamed text, a placeholder rendered at its real height): judged by the gap
    // alone, the page's own growth would read as the reader leaving the end. A scroll up that the page made itself
    // (a shrink clamping the position) is taken as the new position by followEnd before its event comes.
    this.element.addEventListener('scroll', () => {
      const el = this.element;
      const top = el.scrollTop;
      if (el.scrollHeight - top - el.clientHeight < STICK_SLACK) this.follow(true);
      else if (top < this.lastTop) this.follow(false);
      this.lastTop = top;
    });
    // The wheel turned up lets go at once, before a growing page can take the reader back down.
    this.element.addEventListener('wheel', (event) => { if (event.deltaY < 0) this.follow(false); }, { passive: true });
    this.element.addEventListener('keydown', (event) => this.scrollKey(event));
    // Content that grows after its frame (an image decoding, a card folding open) is followed here.
    new ResizeObserver(() => this.followEnd()).observe(this.list);
  }

  /** Some entry still has streamed text to render: the page should render again next frame. */
  get backlog(): boolean {
    return this.backlogged.size > 0;
  }

  /** Renders `changes`; `inFrame`: called from a frame callback (the view may scroll to the end at once). */
  render(changes: StoreChanges, focusPermissions: boolean, inFrame = true): void {
    beginFrame();
    try {
      this.renderFrame(changes, focusPermissions);
    } finally {
      endFrame();
    }
    // Rendered in a task of its own (a streaming answer, see ChatApp.renderTask): the next frame scrolls, before its
    // own layout, so the render's task does not lay out its output to scroll.
    if (!inFrame) {
      this.followFrame ??= requestAnimationFrame(() => {
        this.followFrame = undefined;
        this.followEnd();
      });
      return;
    }
    // The view moves to the new end before the browser decides which content-visibility: auto groups are on screen.
    // From the ResizeObserver alone (after the frame's layout) it would still be where the end was: the groups there
    // would be laid out in full a second time in the frame, only to be skipped again in the next one. Reading the
    // scroll height here lays out what the frame would have laid out anyway, once.
    this.followEnd();
  }

  private renderFrame(changes: StoreChanges, focusPermissions: boolean): void {
    const store = this.store;
    for (const renderer of this.backlogged) {
      if (renderer.element.isConnected) renderer.drain?.();
      if (!renderer.backlog || !renderer.element.isConnected) this.backlogged.delete(renderer);
    }
    if (changes.reset) this.rebuild();
    else {
      for (const index of [...new Set([...changes.entries.keys(), ...changes.gaps.keys()])].sort((a, b) => a - b)) {
        const change = changes.entries.get(index);
        const gap = changes.gaps.get(index);
        if (change) this.updateEntry(index, store.entry(index), change === 'append' ? changes.appended.get(index) : undefined, focusPermissions, gap);
        const renderer = gap && this.rendererAt(index);
        if (renderer) {
          renderer.updateGap?.(gap);
          if (renderer.backlog) this.backlogged.add(renderer);
        }
      }
      if (changes.earlier && this.loadingBefore >= 0) this.showEarlier();
    }
    this.updateLive(!changes.reset);
    if (this.following && this.renderers.length > 2 * WINDOW) this.trim();
    this.updateEarlier();
    if (changes.reset || changes.header || changes.entries.size > 0) this.updateWelcome();
  }

  /** Number of DOM nodes under the transcript (for the benchmark and tests). */
  nodeCount(): number {
    return this.element.querySelectorAll('*').length;
  }

  private rebuild(): void {
    const store = this.store;
    this.start = Math.max(store.first, store.length - WINDOW);
    this.renderers = [];
    this.backlogged.clear();
    this.liveIndex = -1;
    this.loadingBefore = -1;
    this.earlierShown = -1;
    const fragment = document.createDocumentFragment();
    for (let i = this.start; i < store.length; i++) {
      const renderer = this.create(store.entry(i) as EntryView);
      // an answer still flooding in: its gap and newest text, which no change carries again
      const gap = store.gap(i);
      if (gap) renderer.updateGap?.({ skip: gap.skip, reset: true, newest: [gap.newest], closed: false });
      if (renderer.backlog) this.backlogged.add(renderer);
      fragment.append(renderer.element);
    }
    this.list.replaceChildren(fragment);
    this.virtualizer.prune();
    this.follow(true);
  }

  private updateEntry(index: number, entry: EntryView | undefined, appended: readonly string[] | undefined, focusPermissions: boolean, gap?: GapChange): void {
    if (!entry || index < this.start) return; // collapsed behind "Show earlier": rendered from the store when shown
    const position = index - this.start;
    // Entries arrive in order; render any gap from the store.
    while (this.start + this.renderers.length < index) this.list.append(this.create(this.store.entry(this.start + this.renderers.length) as EntryView).element);
    let renderer = this.renderers[position];
    if (!renderer) {
      renderer = this.create(entry);
      this.list.append(renderer.element);
    } else if (renderer.kind !== entry.kind) {
      const fresh = this.create(entry, position);
      renderer.element.replaceWith(fresh.element);
      this.virtualizer.prune();
      renderer = fresh;
    } else renderer.update(entry, appended, gap);
    if (renderer.backlog) this.backlogged.add(renderer);
    if (focusPermissions && renderer.kind === 'tool') this.focusNewPermission(renderer);
    // A new question takes the focus the same way (only when the reader is in the panel).
    if (focusPermissions && renderer instanceof ElicitationEntry && renderer.card.isNew && document.hasFocus()) renderer.card.focusFirst();
    if (focusPermissions) this.alertIfWaiting(renderer, entry);
  }

  private create(entry: EntryView, at?: number): EntryRenderer {
    const renderer = createEntryRenderer(entry, this.post, this.virtualizer);
    renderer.update(entry);
    renderer.setLive(false); // complete unless updateLive says otherwise (an oversized open block is settled)
    if (renderer.backlog) this.backlogged.add(renderer);
    if (at === undefined) this.renderers.push(renderer);
    else this.renderers[at] = renderer;
    return renderer;
  }

  /** A prompt that now waits for the user is read out at once, wherever the focus is. */
  private alertIfWaiting(renderer: EntryRenderer, entry: EntryView): void {
    const card = (renderer as { card?: unknown }).card;
    if (entry.kind === 'tool' && card instanceof ToolCard && card.newPermission && entry.tool.permission) {
      const options = entry.tool.permission.options.map((o) => o.name).join(', ');
      this.announcer.alert(l10n.t('The agent asks for permission: {0}. Options: {1}.', entry.tool.title, options));
    } else if (entry.kind === 'elicitation' && renderer instanceof ElicitationEntry && renderer.card.isNew) {
      this.announcer.alert(l10n.t('The agent asks you: {0}', entry.elicitation.message));
    }
  }

  private focusNewPermission(renderer: EntryRenderer): void {
    const card = (renderer as { card?: unknown }).card;
    if (!(card instanceof ToolCard) || !card.newPermission) return;
    // Only when the reader is in the panel: never pull the focus out of the editor.
    if (document.hasFocus()) card.firstOption()?.focus({ preventScroll: false });
  }

  private updateLive(announce: boolean): void {
    const live = this.store.turn !== 'idle' ? this.store.length - 1 : -1;
    if (live === this.liveIndex) return;
    const before = this.rendererAt(this.liveIndex);
    before?.setLive(false);
    // what is left of a burst is rendered in the next frames, a frame's share at a time
    if (before?.backlog) this.backlogged.add(before);
    const finished = this.store.entry(this.liveIndex);
    if (announce && finished?.kind === 'agent') this.announcer.announce(before?.head?.(ANNOUNCED_SOURCE) ?? finished.text);
    this.liveIndex = live;
    this.rendererAt(live)?.setLive(true);
  }

  private rendererAt(index: number): EntryRenderer | undefined {
    return index >= this.start ? this.renderers[index - this.start] : undefined;
  }

  private showEarlier(): void {
    const store = this.store;
    if (this.start <= store.first) {
      // The page holds nothing older: ask the host; this runs again when the entries arrive.
      if (store.first > 0 && this.loadingBefore !== store.first) {
        this.loadingBefore = store.first;
        this.post({ type: 'loadEarlier', before: store.first, count: 2 * WINDOW });
        this.earlierShown = -1;
        this.updateEarlier();
      }
      return;
    }
    this.loadingBefore = -1;
    const newStart = Math.max(store.first, this.start - WINDOW);
    const before = this.element.scrollHeight;
    const added: EntryRenderer[] = [];
    const fragment = document.createDocumentFragment();
    for (let i = newStart; i < this.start; i++) {
      const entry = store.entry(i) as EntryView;
      const renderer = createEntryRenderer(entry, this.post, this.virtualizer);
      renderer.update(entry);
      renderer.setLive(false);
      added.push(renderer);
      fragment.append(renderer.element);
    }
    this.list.prepend(fragment);
    this.renderers = [...added, ...this.renderers];
    this.start = newStart;
    // Keep the entries the reader was looking at in place.
    this.scrollTo(this.element.scrollTop + this.element.scrollHeight - before);
    this.updateEarlier();
    (this.list.firstElementChild as HTMLElement | null)?.setAttribute('tabindex', '-1');
    if (this.start === 0) (this.list.firstElementChild as HTMLElement | null)?.focus({ preventScroll: true });
    else this.earlier.focus({ preventScroll: true });
  }

  private trim(): void {
    const remove = this.renderers.length - WINDOW;
    for (const renderer of this.renderers.splice(0, remove)) renderer.element.remove();
    this.virtualizer.prune();
    this.start += remove;
    this.store.forget(this.start - KEEP_BEFORE);
    this.loadingBefore = -1; // an answer to a pending "Show earlier" no longer fits: the button asks again
  }

  private updateEarlier(): void {
    // Called every frame: the DOM is touched only when the count changed.
    if (this.earlierShown === this.start) return;
    this.earlierShown = this.start;
    this.earlier.hidden = this.start === 0;
    const loading = this.loadingBefore >= 0;
    this.earlier.disabled = loading;
    this.earlier.replaceChildren(icon(loading ? 'loading' : 'fold-up', loading ? 'codicon-modifier-spin' : undefined), loading ? (' ' + l10n.t('Loading earlier…')) : (' ' + l10n.t('Show earlier ({0})', this.start)));
    this.earlier.setAttribute('aria-label', l10n.t('Show earlier entries ({0} hidden)', this.start));
  }

  private updateWelcome(): void {
    const header = this.store.header;
    const empty = this.store.length === 0;
    this.welcome.hidden = !empty;
    if (!empty) return;
    if (header.status === 'none') {
      const start = h('button', { type: 'button', 'aria-label': l10n.t('New session') }, icon('add'), (' ' + l10n.t('New session')));
      start.addEventListener('click', () => this.post({ type: 'newSession' }));
      this.welcome.replaceChildren(h('p', {}, l10n.t('No agent session yet. Start one, or type a prompt below to start one with the default agent.')), start);
    } else if (header.status === 'starting') this.welcome.replaceChildren(h('p', {}, icon('loading', 'codicon-modifier-spin'), (' ' + l10n.t('Starting {0}…', header.agentName ?? l10n.t('the agent')))));
    else if (header.status === 'restarting') this.welcome.replaceChildren(h('p', {}, icon('loading', 'codicon-modifier-spin'), (' ' + l10n.t('Restarting {0}…', header.agentName ?? l10n.t('the agent')))));
    else if (header.status === 'exited') this.welcome.replaceChildren(h('p', {}, l10n.t('{0} is not running. Send a message to start it again.', header.agentName ?? l10n.t('The agent'))));
    else this.welcome.replaceChildren(h('p', {}, l10n.t('Ask {0} anything. Type / for its commands, @ to mention a file.', header.agentName ?? l10n.t('the agent'))));
  }

  /** The reader follows the end (the view scrolls to it as the answer grows) or lets go; the virtualiser is told. */
  private follow(following: boolean): void {
    this.following = following;
    this.virtualizer.setFollowing(following);
  }

  private followEnd(): void {
    if (!this.following) return;
    const height = this.element.scrollHeight;
    // what was far above the end may now be in view
    if (height < this.followedHeight) this.virtualizer.wake();
    this.followedHeight = height;
    this.scrollTo(height);
  }

  /** Moves the view itself: the position it lands on is the last one, so its scroll event is not read as the reader's. */
  private scrollTo(top: number): void {
    this.element.scrollTop = top;
    this.lastTop = this.element.scrollTop;
  }

  /**
   * Home and End on the conversation itself go to its very start or end at once. The browser's own (animated) scroll
   * of a long answer ends short of them: placeholders rendered on the way change their heights under the animation.
   * At the top the virtualiser keeps the reader there as groups render (BlockVirtualizer.restore); at the end
   * followEnd does. The keys keep their meaning in a control (a text field in a form) and with a modifier; a key that
   * moves up lets go of the end before the browser's scroll event says so.
   */
  private scrollKey(event: KeyboardEvent): void {
    const target = event.target;
    if (target instanceof HTMLElement && target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return;
    // A key that moves up (the browser's scroll, or Alt+↑ / Alt+Home to an earlier message) lets go of the end at once.
    if (event.key === 'ArrowUp' || event.key === 'PageUp' || (event.key === 'Home' && event.altKey)) {
      this.follow(false);
      return;
    }
    if ((event.key !== 'Home' && event.key !== 'End') || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    this.follow(event.key === 'End');
    this.scrollTo(event.key === 'End' ? this.element.scrollHeight : 0);
  }
}
