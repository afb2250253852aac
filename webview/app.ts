import type { GateView } from '../src/shared/gateProtocol';
import type { HostMessage } from '../src/shared/protocol';
import { Announcer } from './announcer';
import { originalText } from './dom';
import type { HostChannel } from './hostChannel';
import { setWorkspaceFolders } from './paths';
import { PromptEditor } from './prompt/promptEditor';
import type { Post } from './render/contentBlocks';
import { AllowancesSummary } from './render/allowances';
import { GateBanner } from './render/gate';
import { Header } from './render/header';
import { MessageNavigation } from './messageNavigation';
import { ShortcutsHelp } from './render/shortcutsHelp';
import { UnsavedNotice } from './render/unsavedNotice';
import { PlanView } from './render/plan';
import { QueueList } from './render/queue';
import { Transcript } from './render/transcript';
import { warmUp } from './markdown/streamingMarkdown';
import { formatCount } from './render/floodGap';
import { TranscriptStore } from './store';
import * as l10n from '@vscode/l10n';


/**
 * The page: header, conversation, pinned plan, queued messages, prompt. Messages from the host update the store at
 * once; the screen is updated at most once per animation frame from what changed, however many patches arrived in
 * between.
 */
export class ChatApp {
  readonly store = new TranscriptStore();
  private readonly header: Header;
  private readonly gate: GateBanner;
  private readonly allowances: AllowancesSummary;
  private readonly transcript: Transcript;
  private readonly plan = new PlanView();
  private readonly prompt: PromptEditor;
  private readonly queue: QueueList;
  private readonly unsaved: UnsavedNotice;
  private readonly announcer = new Announcer();
  private lastGateAlert = '';
  private frame: number | undefined;
  private fallback: ReturnType<typeof setTimeout> | undefined;
  private waiting: ReturnType<typeof setTimeout> | undefined;
  private lastRenderAt = -Infinity;
  /**
   * While a turn streams, the page renders in a task of its own, posted from a frame, and the next frame lays out and
   * paints what it added: the render's Markdown and DOM (FRAME_BUDGET_MS) and the layout of its output are two tasks,
   * not one long one. Rendered inside the frame, the scroll to the new end laid the frame out within the render's
   * script. In the real window (stream bench, 1 MiB, alternating builds): windows with a task over 50 ms while
   * streaming 10 of 14 → 11 of 23, the longest frame's scripts 14–62 ms with up to 42 ms of forced layout → 0–41 ms
   * with none, the agent's last write → the end on screen median 97 → 86 ms; 10 MiB (2 windows each): the longest
   * task while streaming 85 and 108 ms (forced layout 57 and 79) → 61 and none over 50.
   */
  private readonly renderTask = new MessageChannel();
  private lastResync = 0;
  /**
   * While a turn streams, the page renders at most this often (ms): every other frame. In code-server the page shares
   * the workbench's renderer, and each frame's style, layout and paint of the grown text delays the workbench's own
   * work, the receipt of the next patches first. Measured in the real window (`STREAM_FRAME_MS` in the stream bench,
   * 4 fresh windows each): a 10 MiB answer was on screen 705–1,559 ms after the agent's last write at 33 ms, 1,203–
   * 2,418 ms at every frame, with fewer tasks over 50 ms (3–6 against 3–15); 1 MiB the same within noise. A quiet
   * page renders on the next frame. `configure` can set it (the benchmark compares).
   */
  private streamFrameMs = 32;
  /** Frames rendered and the time spent in them (the benchmark reads these). */
  renders = 0;
  renderMs = 0;
  longestRenderMs = 0;
  /** Snapshots asked for because a patch did not fit the page's copy (none, unless something is wrong). */
  resyncs = 0;

  constructor(
    root: HTMLElement,
    private readonly host: HostChannel,
  ) {
    // New session (header or empty state) puts the caret in the prompt at once: the user types while the agent
    // starts, and nothing later moves the focus away from what they type.
    const post: Post = (message) => {
      host.post(message);
      if (message.type === 'newSession' || message.type === 'chooseAgent') this.prompt.focus();
    };
    this.renderTask.port1.onmessage = () => this.render(false);
    this.header = new Header(post);
    this.gate = new GateBanner(post);
    this.allowances = new AllowancesSummary(post);
    this.transcript = new Transcript(this.store, post, this.announcer);
    this.prompt = new PromptEditor(host);
    this.queue = new QueueList(post, this.announcer, () => this.prompt.focus());
    this.unsaved = new UnsavedNotice(post, this.announcer, () => this.prompt.focus());
    const help = new ShortcutsHelp();
    this.header.addAction(help.button);
    new MessageNavigation(root, () => this.prompt.focus());
    root.append(this.header.element, help.element, this.gate.element, this.allowances.element, this.transcript.element, this.plan.element, this.queue.element, this.unsaved.element, this.prompt.element, this.announcer.element);
    root.addEventListener('click', (event) => this.click(event), true);
    // Middle-click would open a link in a new window: links are opened by the host only.
    root.addEventListener('auxclick', (event) => {
      if ((event.target as Element | null)?.closest?.('a')) event.preventDefault();
    });
  }

  receive(message: HostMessage): void {
    switch (message.type) {
      case 'snapshot':
      case 'patch':
      case 'earlier': {
        const result = this.store.apply(message);
        if (result === 'resync') this.resync();
        else if (result === 'applied') this.schedule();
        return;
      }
      case 'fileResults':
        return this.prompt.fileResults(message.requestId, message.files);
      case 'attach':
        this.prompt.attach(message.attachments);
        this.prompt.focus();
        return;
      case 'focusPrompt':
        return this.prompt.focus();
      case 'gate':
        this.alertGate(message.gate);
        return this.gate.update(message.gate);
      case 'unsaved':
        return this.unsaved.update(message.notice);
      case 'draft':
        this.prompt.restore(message.text, message.attachments);
        this.prompt.focus();
        return;
    }
  }

  /** A question or a sign-in in the start area waits for the user: read out at once, like a permission prompt. */
  private alertGate(gate: GateView | null): void {
    const waiting = gate?.kind === 'elicitation' ? l10n.t('{0} asks you: {1}', gate.agentName, gate.elicitation.message) : gate?.kind === 'signIn' ? l10n.t('Sign in to {0}: {1}', gate.agentName, gate.message) : '';
    if (waiting && waiting !== this.lastGateAlert) this.announcer.alert(waiting);
    this.lastGateAlert = waiting;
  }

  nodeCount(): number {
    return this.transcript.nodeCount();
  }

  /** Sets the Markdown renderer (and the count of a flood's gap) up, unseen, before the first answer needs it. */
  warmUp(): void {
    warmUp(this.transcript.element);
    formatCount(0);
  }

  /** Everything the page was sent is on screen: no change, backlog or frame waits (the benchmark reads it). */
  settled(): boolean {
    return !this.store.hasChanges() && !this.transcript.backlog && this.frame === undefined && this.waiting === undefined;
  }

  /** Options for the benchmark's side-by-side: the transcript's block virtualisation on or off. */
  configure(options: { virtualize?: boolean; streamFrameMs?: number }): void {
    if (options.virtualize !== undefined) this.transcript.virtualizer.setEnabled(options.virtualize);
    if (options.streamFrameMs !== undefined) this.streamFrameMs = options.streamFrameMs;
  }

  /** What the block virtualiser did (tests and the benchmark). */
  virtualizerStats(): { placeholders: number; restored: number; busy: boolean; resting: number; tracked: number; mostPolished: number; longestPolishMs: number } {
    const v = this.transcript.virtualizer;
    return { placeholders: v.placeholdersMade, restored: v.groupsRestored, busy: v.busy, resting: v.resting, tracked: v.tracked, mostPolished: v.mostPolished, longestPolishMs: v.longestPolishMs };
  }

  /**
   * Renders now what changed: from the frame callback (`inFrame`), or from the task a streaming render is posted to
   * (the transcript then scrolls to the end in the next frame).
   */
  render(inFrame = true): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    if (this.fallback !== undefined) clearTimeout(this.fallback);
    if (this.waiting !== undefined) clearTimeout(this.waiting);
    this.frame = this.fallback = this.waiting = undefined;
    if (!this.store.hasChanges() && !this.transcript.backlog) return;
    const started = performance.now();
    this.lastRenderAt = started;
    const changes = this.store.takeChanges();
    if (changes.header) {
      this.header.update(this.store.header);
      this.prompt.setCapabilities(this.store.header.capabilities);
      this.queue.setMidTurn(this.store.header.capabilities.midTurn ?? false);
      // Paths on screen are relative to the folders: other folders, everything again.
      if (setWorkspaceFolders(this.store.header.workspaceFolders)) changes.reset = true;
    }
    this.transcript.render(changes, true, inFrame);
    this.allowances.update(this.store.header.allowances, this.store.length > 0, this.store.header.sessionKey);
    if (changes.plan || changes.turn) this.plan.update(this.store.plan, this.store.turn);
    if (changes.turn) this.prompt.setTurn(this.store.turn);
    if (changes.queue) this.queue.update(this.store.queue, changes.reset);
    if (changes.commands) this.prompt.setCommands(this.store.commands);
    if (this.transcript.backlog) this.schedule();
    const elapsed = performance.now() - started;
    this.renders++;
    this.renderMs += elapsed;
    this.longestRenderMs = Math.max(this.longestRenderMs, elapsed);
  }

  private schedule(): void {
    if (this.frame !== undefined) return;
    const wait = this.store.turn === 'running' && !this.transcript.backlog ? this.lastRenderAt + this.streamFrameMs - performance.now() : 0;
    if (wait > 1) {
      this.waiting ??= setTimeout(() => {
        this.waiting = undefined;
        this.schedule();
      }, wait);
      return;
    }
    // nothing to wait for any more (the turn ended while the render waited for its pace): the next frame draws it
    if (this.waiting !== undefined) clearTimeout(this.waiting);
    this.waiting = undefined;
    const streaming = this.store.turn === 'running';
    this.frame = requestAnimationFrame(() => {
      if (streaming) this.renderTask.port2.postMessage(null);
      else this.render();
    });
    // Frames stop while the page is not painted; the state must still move on.
    this.fallback = setTimeout(() => this.render(), 250);
  }

  /** The page missed something: ask for a snapshot (at most once a second, so a bug cannot loop). */
  private resync(): void {
    const now = Date.now();
    if (now - this.lastResync < 1_000) return;
    this.lastResync = now;
    this.resyncs++;
    this.host.post({ type: 'ready' });
  }

  /** Links never navigate the page; the host opens them. Copy buttons in code blocks copy through the host. */
  private click(event: MouseEvent): void {
    const target = event.target as Element | null;
    const link = target?.closest?.('a');
    if (link) {
      event.preventDefault();
      const href = link.getAttribute('href');
      if (href) this.host.post({ type: 'openLink', href });
      return;
    }
    const copy = target?.closest?.('[data-action="copy-code"]');
    const code = copy?.closest('.code-block')?.querySelector('code');
    if (copy && code) {
      this.host.post({ type: 'copy', text: originalText(code) });
      copy.classList.add('copied');
      copy.setAttribute('aria-label', l10n.t('Copied'));
      setTimeout(() => {
        copy.classList.remove('copied');
        copy.setAttribute('aria-label', l10n.t('Copy code'));
      }, 1500);
    }
  }
}
