import type { SessionChange, SessionStateView } from '../session/state';
import type { EarlierMessage, HeaderView, HostMessage, PatchOp, SnapshotMessage } from '../shared/protocol';
import { FILL_CHARS, FloodGaps } from './floodGaps';
import { commandsView, entryView, planView, queueView, type EntryLookups } from './viewModel';

/**
 * Turns one session's change events into messages for the webview: a snapshot on demand, then patches. Changes only
 * mark what is dirty; a timer flushes at most one patch per interval (a frame, by default), so a stream of thousands
 * of chunks a second becomes ~60 posts. A message that only grew is sent as the appended text (offset + delta); the
 * webview checks the offset and asks for a new snapshot if it does not match. No `vscode`: unit-tested in Node.
 *
 * One patch at a time is on its way: while the last one has not been delivered (the promise `post` returns, VS
 * Code's `postMessage`, settles when the workbench has handed it to the page), changes wait and go out together once
 * it is. A window busy with the stream would otherwise queue patches faster than it takes them, and the end of an
 * answer would wait behind all of them (see DELIVERY_TIMEOUT_MS).
 */

export interface ObservableState extends SessionStateView {
  onChange(listener: (change: SessionChange) => void): { dispose(): void };
}

export interface FlushTimer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimer: FlushTimer = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const FLUSH_INTERVAL_MS = 17;
/** A patch not delivered after this long no longer holds the next back (a page that never answers cannot stall it). */
export const DELIVERY_TIMEOUT_MS = 1_000;
/**
 * Entries a snapshot carries: the tail of the conversation, a few times what the page renders at first (40), so
 * "Show earlier" is instant for the first pages and asks the host only after that.
 */
export const SNAPSHOT_TAIL = 200;

interface SentMessage {
  readonly text: number;
  readonly blocks: number;
}

export class SessionProjector {
  private readonly dirtyEntries = new Set<number>();
  private headerDirty = false;
  private planDirty = false;
  private commandsDirty = false;
  private turnDirty = false;
  private queueDirty = false;
  /** Entries were removed or replaced: indexes moved, so the page gets a new snapshot instead of patches. */
  private resnapshot = false;
  /** What the webview holds of each message entry, so a grown message is sent as its new text only. */
  private readonly sent = new Map<number, SentMessage>();
  private readonly toolEntry = new Map<string, number>();
  /** Answers flooding in faster than the page takes them: the text they skip, and its fills (floodGaps.ts). */
  private readonly floods = new FloodGaps();
  /**
   * Text appended to each message since the last flush, as the session reported it: the delta is joined from these
   * pieces instead of sliced from the message, since slicing a string built by appending copies all of it (a 1 MB
   * answer flushed 60 times a second would be 60 MB/s of copying).
   */
  private readonly appended = new Map<number, string[]>();
  private timer: unknown;
  /** The patch on its way (see the class comment), and whether a flush waits for it. */
  private inFlight: { readonly timeout: unknown } | undefined;
  private held = false;
  private readonly subscription: { dispose(): void } | undefined;
  private disposed = false;

  constructor(
    readonly epoch: number,
    private readonly state: ObservableState | undefined,
    private readonly terminals: EntryLookups,
    private readonly header: () => HeaderView,
    /** Posts to the page; a promise (thenable) returned settles when the message is delivered. */
    private readonly post: (message: HostMessage) => unknown,
    private readonly clock: FlushTimer = realTimer,
    private readonly intervalMs = FLUSH_INTERVAL_MS,
  ) {
    this.subscription = state?.onChange((change) => this.mark(change));
  }

  /**
   * The whole state but for entries older than the last `tail`; everything dirty so far is included, so pending
   * marks are dropped. Older entries are sent when the page asks (`earlier`).
   */
  snapshot(tail = SNAPSHOT_TAIL): SnapshotMessage {
    this.clearDirty();
    this.sent.clear();
    this.toolEntry.clear();
    this.floods.clear();
    const state = this.state;
    const first = state ? Math.max(0, state.entries.length - tail) : 0;
    const entries = state ? this.projectRange(first, state.entries.length) : [];
    return {
      type: 'snapshot',
      epoch: this.epoch,
      header: this.header(),
      first,
      entries,
      plan: state ? planView(state) : [],
      commands: state ? commandsView(state) : [],
      turn: state?.turn ?? 'idle',
      queue: state ? queueView(state) : [],
    };
  }

  /** Up to `count` entries before entry `before`, for a page that holds `before` onwards. */
  earlier(before: number, count: number): EarlierMessage {
    const end = Math.min(before, this.state?.entries.length ?? 0);
    const first = Math.max(0, end - count);
    return { type: 'earlier', epoch: this.epoch, first, entries: this.projectRange(first, end) };
  }

  /** Something outside the session changed (agent status, the session list). */
  headerChanged(): void {
    this.headerDirty = true;
    this.schedule();
  }

  /** Tool cards whose output changed outside the session (a running command's terminal) are dirty. */
  toolCallsChanged(toolCallIds: readonly string[]): void {
    for (const toolCallId of toolCallIds) {
      const index = this.toolEntry.get(toolCallId) ?? this.findToolEntry(toolCallId);
      if (index !== undefined) this.dirtyEntries.add(index);
    }
    if (this.dirtyEntries.size > 0) this.schedule();
  }

  /**
   * Sends what is dirty now, or once the patch on its way is delivered (`urgent`: now regardless, for the end of a
   * turn: it would only queue behind that patch). Called by the timer; public for tests and for a final flush.
   */
  flush(urgent = false): void {
    if (this.timer !== undefined) this.clock.clear(this.timer);
    this.timer = undefined;
    if (this.disposed) return;
    if (this.inFlight && !urgent) {
      this.held = true;
      return;
    }
    if (this.resnapshot) {
      this.send(this.snapshot());
      return;
    }
    const ops: PatchOp[] = [];
    const state = this.state;
    if (state) {
      for (const index of [...this.dirtyEntries].sort((a, b) => a - b)) {
        const op = this.entryOp(state, index);
        if (op) ops.push(op);
      }
      if (this.planDirty) ops.push({ op: 'plan', plan: planView(state) });
      if (this.commandsDirty) ops.push({ op: 'commands', commands: commandsView(state) });
      if (this.turnDirty) ops.push({ op: 'turn', turn: state.turn });
      if (this.queueDirty) ops.push({ op: 'queue', queue: queueView(state) });
    }
    if (this.headerDirty) ops.push({ op: 'header', header: this.header() });
    this.clearDirty();
    if (state && this.sent.size > 2 * SNAPSHOT_TAIL) this.forgetSentBefore(state.entries.length - SNAPSHOT_TAIL);
    // What a flood skipped goes in the room a patch has left, one delivery apart; never beside a flood's newest text
    // or the end of a turn, which are what the reader waits for.
    if (!urgent && !ops.some((op) => op.op === 'append' && op.skip !== undefined)) {
      const carried = ops.reduce((total, op) => total + (op.op === 'append' ? op.delta.length : 0), 0);
      ops.push(...this.floods.fills(FILL_CHARS - carried));
    }
    if (ops.length > 0) this.send({ type: 'patch', epoch: this.epoch, ops });
    if (this.floods.open) this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.clock.clear(this.timer);
    this.timer = undefined;
    this.delivered();
    this.subscription?.dispose();
  }

  private send(message: HostMessage): void {
    const delivery = this.post(message);
    // what a held flush would have sent is in this message
    this.held = false;
    if (this.inFlight) this.clock.clear(this.inFlight.timeout);
    this.inFlight = undefined;
    if (!isThenable(delivery)) return;
    const inFlight = { timeout: this.clock.set(() => this.inFlight === inFlight && this.delivered(), DELIVERY_TIMEOUT_MS) };
    this.inFlight = inFlight;
    const settle = () => this.inFlight === inFlight && this.delivered();
    delivery.then(settle, settle);
  }

  /** The patch on its way arrived (or was given up on): a flush held back for it goes now. */
  private delivered(): void {
    const inFlight = this.inFlight;
    if (!inFlight) return;
    this.inFlight = undefined;
    this.clock.clear(inFlight.timeout);
    if (this.held && !this.disposed) {
      this.held = false;
      this.flush();
    }
  }

  private mark(change: SessionChange): void {
    switch (change.type) {
      case 'entry-added': {
        const entry = this.state?.entries[change.index];
        if (entry?.kind === 'tool') this.toolEntry.set(entry.toolCallId, change.index);
        this.dirtyEntries.add(change.index);
        break;
      }
      case 'entry-changed': {
        if (change.appended !== undefined && this.sent.has(change.index)) {
          const pieces = this.appended.get(change.index);
          if (pieces) pieces.push(change.appended);
          else this.appended.set(change.index, [change.appended]);
        }
        this.dirtyEntries.add(change.index);
        break;
      }
      case 'tool-call': {
        const index = this.toolEntry.get(change.toolCallId) ?? this.findToolEntry(change.toolCallId);
        if (index !== undefined) this.dirtyEntries.add(index);
        break;
      }
      case 'plan':
        this.planDirty = true;
        break;
      case 'commands':
        this.commandsDirty = true;
        break;
      case 'turn':
        this.turnDirty = true;
        break;
      case 'queue':
        this.queueDirty = true;
        break;
      case 'reset':
      case 'entries-removed':
        this.resnapshot = true;
        break;
      case 'turn-ended':
        // The end of an answer is what the user waits for: it goes out now, not a frame later, and before the work
        // that follows a turn (the transcript's save) takes the host; it does not wait for the patch on its way.
        this.flush(true);
        return;
      case 'turn-started':
      case 'permission-requested':
      case 'permission-settled':
      case 'elicitation-requested':
      case 'elicitation-settled':
        // Their entries and the turn state change with them, marked by those changes.
        return;
      case 'modes':
      case 'config':
      case 'info':
      case 'usage':
        this.headerDirty = true;
        break;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer === undefined && !this.disposed) this.timer = this.clock.set(() => this.flush(), this.intervalMs);
  }

  private entryOp(state: ObservableState, index: number): PatchOp | undefined {
    const entry = state.entries[index];
    if (!entry) return undefined;
    const before = this.sent.get(index);
    if (before && entry.kind === 'message' && entry.blocks.length === before.blocks && entry.text.length >= before.text) {
      // Thoughts show their blocks after the text, so an append is exact only without blocks.
      if (entry.role !== 'thought' || entry.blocks.length === 0) {
        if (entry.text.length === before.text) return undefined;
        this.sent.set(index, { text: entry.text.length, blocks: entry.blocks.length });
        const pieces = this.appended.get(index);
        const joined = pieces?.join('');
        const delta = joined !== undefined && joined.length === entry.text.length - before.text ? joined : entry.text.slice(before.text);
        if (entry.role === 'agent') return this.floods.append(index, before.text, delta, () => entry.text);
        return { op: 'append', index, offset: before.text, delta };
      }
    }
    return { op: 'entry', index, entry: this.project(index, entry) };
  }

  private project(index: number, entry: ObservableState['entries'][number]) {
    this.floods.forget(index);
    if (entry.kind === 'message') this.sent.set(index, { text: entry.text.length, blocks: entry.blocks.length });
    else this.sent.delete(index);
    if (entry.kind === 'tool') this.toolEntry.set(entry.toolCallId, index);
    return entryView(entry, this.state as ObservableState, this.terminals);
  }

  /**
   * What the page holds of messages long past is only needed to send a later change as a delta: forgetting it means
   * such a (rare) change goes as the whole entry, and keeps this map the size of the tail, not of the day's history.
   */
  private forgetSentBefore(index: number): void {
    for (const key of this.sent.keys()) {
      if (key >= index) continue;
      this.sent.delete(key);
      this.floods.forget(key);
    }
  }

  private projectRange(from: number, to: number) {
    const entries = this.state?.entries ?? [];
    const out = [];
    for (let i = from; i < to; i++) out.push(this.project(i, entries[i]));
    return out;
  }

  /** A tool call announced since the last flush has no index yet: look for it from the end. */
  private findToolEntry(toolCallId: string): number | undefined {
    const entries = this.state?.entries ?? [];
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i];
      if (entry.kind === 'tool' && entry.toolCallId === toolCallId) {
        this.toolEntry.set(toolCallId, i);
        return i;
      }
    }
    return undefined;
  }

  private clearDirty(): void {
    this.dirtyEntries.clear();
    this.appended.clear();
    this.headerDirty = this.planDirty = this.commandsDirty = this.turnDirty = this.queueDirty = this.resnapshot = false;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
