import { stripAnsi } from '../../src/shared/textSafety';
import { copiedAsRendered, holds, reselect, selectedNodes, selectionIn } from './placeholderSelection';
/**
 * Keeps a long transcript's DOM small: a completed group of Markdown blocks (see streamingMarkdown.ts) that is far
 * from the viewport becomes a placeholder — the same element, at the height it had when rendered, holding only the
 * group's text as one text node — and is rendered again from its Markdown when it comes near. A 10 MiB answer is then
 * a few rendered groups around the viewport and one element per other group.
 *
 * Why placeholders that hold the text, rather than dropping far blocks (a windowed list) or `content-visibility:
 * auto` alone: VS Code's find in a webview is the browser's own find on the page's DOM (`window.find` in the webview
 * frame), and a copy is the browser's serialisation of the selection. Text that is not in the DOM is neither found
 * nor copied; `content-visibility: auto` keeps it findable but keeps every element, so the page still grows with the
 * answer. A placeholder's text is the text of the group's rendered Markdown (markdown-it's output without its tags),
 * laid out with `white-space: pre-wrap`: the browser finds in it the words the reader saw. Making it costs a parse, so
 * a placeholder first holds the group's Markdown source and gets the rendered text in the page's idle time (polish):
 * nothing is parsed or laid out for it while an answer streams. Placeholders keep `content-visibility: auto`, so off
 * screen they cost no layout or paint; Chromium's window.find and a selection's text do see text in skipped content.
 * Groups that streamed in far from the viewport are made as placeholders straight away (streamingMarkdown.ts).
 * When find selects a match in a placeholder, scrolling it into view brings the group near, it is rendered, and the
 * same occurrence is selected again in the rendered group, so "find next" goes on from it. A copy whose selection
 * spans placeholders is filled by the transcript's copy handler with the text the rendered groups give
 * (`selectedText`): a placeholder's text has the same words but not always the browser copy's line breaks.
 *
 * A group that holds the page's selection (its anchor or focus) is never replaced: the selection would collapse.
 */

/** How far from the viewport (in viewport heights) a group stays rendered. */
const NEAR = '100%';
/** Work per turn of the queue: placeholders made or groups rendered until this many ms have gone by. */
const SLICE_MS = 6;
/**
 * Placeholders are polished (see polish) only once no group has been added or replaced for this long: while an answer
 * streams, the page's idle time between frames is not idle for the machine. In the real window a 10 MiB stream's
 * polishing took ~0.9 s of the renderer's main thread (its layout query ~0.5 s), shared with the workbench receiving
 * the next patches, on a machine whose cores the agent, the extension host and Chromium already kept busy.
 */
const QUIET_MS = 500;
/**
 * What polishing a placeholder costs per character of its Markdown until the page has measured it (ms): its render
 * and, above all, the layout of its text (see polish), which the slice's clock cannot stop halfway. In Chromium here
 * ~0.6 µs a character, about twice that in the real window while other processes share the cores.
 */
const POLISH_MS_PER_CHAR = 0.001;

interface Group {
  readonly element: HTMLElement;
  /** Renders the group's Markdown (from its owner's text, so nothing is copied here). */
  /** The group's Markdown: a placeholder's text until the page is idle (see polish). */
  readonly source: string;
  /** Renders the group's Markdown (from `source`, in its owner's renderer). */
  readonly render: () => DocumentFragment;
  rendered: boolean;
  near: boolean;
  /** Its height (px) when the observer last saw it: a rendered group never changes, so it is its height now. */
  height: number;
}

/**
 * What a group holds when it is handed over: its rendered blocks, or (streamed in far from the viewport) its Markdown
 * source as a placeholder's text, to become the rendered text when the page is idle.
 */
export type GroupStart = 'rendered' | 'source';

export class BlockVirtualizer {
  /** Every group handed over and still on the page (see prune). */
  private readonly groups = new Map<Element, Group>();
  private readonly observer: IntersectionObserver;
  /** Groups whose state should change (rendered far away, or a placeholder come near). */
  private readonly queue = new Set<Group>();
  private scheduled: number | undefined;
  /** Placeholders still holding their Markdown source, oldest first (see polish). */
  private readonly unpolished = new Set<Group>();
  /** Far placeholders left unobserved while the reader follows the end (see setFollowing). */
  private readonly dormant = new Set<Group>();
  private following = true;
  private idle: number | undefined;
  private quietTimer: ReturnType<typeof setTimeout> | undefined;
  /** When a group was last added or made a placeholder (performance.now()). */
  private lastChange = -Infinity;
  enabled = true;
  /** Placeholders made and groups rendered again since the page started (tests and the benchmark read them). */
  placeholdersMade = 0;
  groupsRestored = 0;
  /** The most groups polished in one idle callback, and the longest such callback (ms) (tests and the benchmark). */
  mostPolished = 0;
  longestPolishMs = 0;
  /** What polishing costs per character, as last measured (see POLISH_MS_PER_CHAR). */
  private polishMsPerChar = POLISH_MS_PER_CHAR;

  constructor(private readonly root: HTMLElement) {
    this.observer = new IntersectionObserver((entries) => this.seen(entries), { root, rootMargin: `${NEAR} 0px` });
    // a taller view shows more above the end than the placeholders left unobserved were far from
    new ResizeObserver(() => this.wake()).observe(root);
    // window.find selects a match in a placeholder skipped by content-visibility without scrolling to it: the group
    // is rendered at once, the match selected again in it and brought into view.
    document.addEventListener('selectionchange', () => this.selectionMoved());
  }

  private selectionMoved(): void {
    const node = document.getSelection()?.anchorNode;
    const element = node instanceof Text ? node.parentElement : null;
    const group = element?.classList.contains('md-placeholder') ? this.groups.get(element) : undefined;
    if (!group || group.rendered) return;
    this.queue.delete(group);
    this.restore(group);
    const anchor = document.getSelection()?.anchorNode;
    (anchor instanceof Element ? anchor : anchor?.parentElement)?.scrollIntoView({ block: 'center' });
  }

  /**
   * The reader follows the end (the transcript scrolls to it as it grows) or has let go of it. While following, a
   * placeholder far from the viewport cannot come near without a scroll of the reader's, which lets go: it is left
   * unobserved. The observer computes every observed group's intersection in every frame whose layout changed, which
   * at 10 MiB (a thousand groups) was up to 20 ms of a streaming frame in the real window.
   */
  setFollowing(following: boolean): void {
    if (this.following === following) return;
    this.following = following;
    if (!following) this.wake();
  }

  /**
   * Every placeholder is observed again (the observer reports each one at once): the reader let go of the end, the
   * view was resized, or the content shrank under a reader at the end.
   */
  wake(): void {
    for (const group of this.dormant) this.observer.observe(group.element);
    this.dormant.clear();
  }

  /** Placeholders left unobserved now (tests read it). */
  get resting(): number {
    return this.dormant.size;
  }

  /** A far placeholder is left unobserved while the reader follows the end (see setFollowing). */
  private rest(group: Group): void {
    if (!this.following || group.rendered || group.near || this.dormant.has(group)) return;
    this.observer.unobserve(group.element);
    this.dormant.add(group);
  }

  /** Virtualisation off (the benchmark's side-by-side): every group stays rendered, placeholders are rendered again. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
  }

  /**
   * A completed group that will not change again; `render` gives its content anew. `source`: it was made as a
   * placeholder holding its Markdown source (class md-placeholder md-unmeasured, at the height of that text), rendered
   * when near, and given its rendered text when the page is idle.
   */
  add(element: HTMLElement, source: string, render: () => DocumentFragment, start: GroupStart = 'rendered'): void {
    const rendered = start === 'rendered';
    if (!this.enabled && rendered) return;
    const group: Group = { element, source, render, rendered, near: rendered, height: -1 };
    this.groups.set(element, group);
    this.observer.observe(element);
    this.lastChange = performance.now();
    if (!rendered) {
      this.unpolished.add(group);
      this.polishWhenIdle();
    }
  }

  /**
   * Entries were taken off the page (trimmed, rebuilt, replaced): their groups are let go of, or the observer and the
   * queues would hold them (and their DOM) for as long as the page lives.
   */
  prune(): void {
    for (const group of this.groups.values()) if (!group.element.isConnected) this.remove(group.element);
  }

  /** Groups the virtualiser keeps track of (tests read it). */
  get tracked(): number {
    return this.groups.size;
  }

  /** The group is gone (its message started over). */
  remove(element: HTMLElement): void {
    const group = this.groups.get(element);
    if (!group) return;
    this.groups.delete(element);
    this.queue.delete(group);
    this.unpolished.delete(group);
    this.dormant.delete(group);
    this.observer.unobserve(element);
  }

  /**
   * The focus moved to `target`: the groups on both sides of its group are rendered now, so Tab and Shift+Tab go on
   * to their links and buttons instead of skipping placeholders.
   */
  focused(target: EventTarget | null): void {
    const group = target instanceof Element ? target.closest('.md-blocks') : null;
    if (!group) return;
    for (const side of [group.previousElementSibling, group.nextElementSibling]) {
      const neighbour = side ? this.groups.get(side) : undefined;
      if (neighbour && !neighbour.rendered) {
        this.queue.delete(neighbour);
        this.restore(neighbour);
      }
    }
  }

  /** A copy of the page's selection as if every group in it were rendered (see copiedAsRendered). */
  selectedText(root: HTMLElement): string | undefined {
    return copiedAsRendered(root, (element) => this.groups.get(element)?.render());
  }

  /** Work waits (groups to replace or render again, placeholders to be given their rendered text). */
  get busy(): boolean {
    return this.queue.size > 0 || this.unpolished.size > 0;
  }

  private polishWhenIdle(): void {
    if (this.idle !== undefined || this.quietTimer !== undefined || this.unpolished.size === 0) return;
    const quietIn = this.lastChange + QUIET_MS - performance.now();
    if (quietIn > 0) {
      this.quietTimer = setTimeout(() => {
        this.quietTimer = undefined;
        this.polishWhenIdle();
      }, quietIn);
      return;
    }
    this.idle = requestIdleCallback((idle) => this.polish(idle));
  }

  /**
   * In the page's idle time, placeholders that hold their Markdown source get the text the rendered group shows
   * (markdown-it's, without layout), so find sees the words the reader will see (`**bold**` is found as "bold").
   * Never while the answer streams (QUIET_MS): a 10 MiB answer is seconds of parsing, done after it is visible.
   */
  private polish(idle: IdleDeadline): void {
    this.idle = undefined;
    if (performance.now() - this.lastChange < QUIET_MS) return this.polishWhenIdle();
    const started = performance.now();
    // Groups are taken while their cost, foreseen from their size, fits the slice and the clock (which sees each
    // group's render and layout) has not run out: a callback that checked only its renders' time laid out 40–50k
    // characters (~30 ms here, ~60 in the real window).
    const budget = Math.min(SLICE_MS, idle.timeRemaining());
    let polished = 0;
    let chars = 0;
    const selected = selectedNodes();
    for (const group of this.unpolished) {
      if (idle.timeRemaining() < 1) break;
      // one group at least, or a group costlier than the slice would never be polished; after it, the clock stops
      // the slice too (the forecast starts from a guess, and a render can run long)
      if (polished > 0 && (performance.now() - started > budget || (chars + group.source.length) * this.polishMsPerChar > budget)) break;
      // rendered meanwhile (restore let it go already): nothing to do
      if (group.rendered) {
        this.unpolished.delete(group);
        continue;
      }
      // a find match in it would lose its selection: left for a later idle time
      if (holds(group.element, selected)) continue;
      this.unpolished.delete(group);
      group.element.replaceChildren(group.render().textContent ?? '');
      // Laid out here, within the slice's clock: Chromium's window.find skipped a placeholder given its text while
      // content-visibility skipped it about 1 time in 5 (found on a second find), never after a layout query on it.
      layOut(group.element);
      polished++;
      chars += group.source.length;
    }
    if (polished > 0) {
      const spent = performance.now() - started;
      // averaged with the last measure: one callback slowed by another process does not shrink the next ones at once
      this.polishMsPerChar = (this.polishMsPerChar + spent / Math.max(1, chars)) / 2;
      this.mostPolished = Math.max(this.mostPolished, polished);
      this.longestPolishMs = Math.max(this.longestPolishMs, spent);
    }
    this.polishWhenIdle();
  }

  private seen(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const group = this.groups.get(entry.target);
      if (!group) continue;
      group.near = entry.isIntersecting;
      if (group.rendered) group.height = entry.boundingClientRect.height;
      if (group.near !== group.rendered) this.queue.add(group);
      else {
        this.queue.delete(group);
        this.rest(group);
      }
    }
    // Coming near is urgent (it will be on screen); going far is not, but is done in the same slices.
    this.scheduleWork();
  }

  /**
   * The work goes in the next frame, before its layout, as the page's own render does: done here, in the observer's
   * callback (a task after the frame), it left the layout dirty for the scroll event that starts the next frame, and
   * the transcript's scroll listener, reading the scroll position, laid the page out a second time in that frame.
   */
  private scheduleWork(): void {
    this.scheduled ??= requestAnimationFrame(() => this.work());
  }

  private work(): void {
    this.scheduled = undefined;
    const started = performance.now();
    // Near groups first: they are about to be seen.
    const order = [...this.queue].sort((a, b) => Number(b.near) - Number(a.near));
    const selected = selectedNodes();
    for (const group of order) {
      if (performance.now() - started > SLICE_MS) break;
      this.queue.delete(group);
      if (group.near && !group.rendered) this.restore(group);
      else if (!group.near && group.rendered && this.enabled && !holds(group.element, selected)) this.replace(group);
    }
    if (this.queue.size > 0) this.scheduleWork();
  }

  /**
   * Rendered far away → placeholder of the same height holding the group's text: its Markdown source at once, the
   * rendered text when the page is idle. No layout: the height is the observer's (a group seen on screen keeps its
   * size while skipped, `contain-intrinsic-size: auto`), where reading innerText and measuring laid out the page
   * under a stream in every callback (most of the page's script time in the real window).
   */
  private replace(group: Group): void {
    const element = group.element;
    const height = group.height >= 0 ? group.height : element.getBoundingClientRect().height;
    element.style.height = `${height}px`;
    element.classList.add('md-placeholder');
    element.replaceChildren(stripAnsi(group.source));
    group.rendered = false;
    this.placeholdersMade++;
    this.lastChange = performance.now();
    this.unpolished.add(group);
    this.polishWhenIdle();
    this.rest(group);
  }

  /** Placeholder come near → the group rendered again; a selection in it (a find match) is found again in it. */
  private restore(group: Group): void {
    const element = group.element;
    const selected = selectionIn(element);
    // The reader at the very top (Home) stays there: scroll anchoring would keep the text below still instead.
    const atTop = this.root.scrollTop === 0;
    element.replaceChildren(group.render());
    element.classList.remove('md-placeholder', 'md-unmeasured');
    element.style.removeProperty('height');
    group.rendered = true;
    this.unpolished.delete(group);
    // rendered, it must be seen going far again
    if (this.dormant.delete(group)) this.observer.observe(element);
    this.groupsRestored++;
    if (atTop) this.root.scrollTop = 0;
    if (selected) reselect(element, selected);
  }
}

/**
 * The element's content laid out: Chromium lays out content that content-visibility skips to answer a layout query on
 * it. One element at a time: a range over several laid out every skipped group between them too (placeholders come in
 * the order they were made, which a flood's fills break), and the slice's clock then saw the layout only after the
 * groups it had already taken.
 */
function layOut(element: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(element);
  range.getBoundingClientRect();
}
