import type { CommandView, EarlierMessage, EntryView, HeaderView, PatchMessage, PlanEntryView, QueuedView, SnapshotMessage, TurnView } from '../src/shared/protocol';

/**
 * The page's copy of what the host sent: replaced by each snapshot, updated by patches. It is a cache, not a source
 * of truth: when a patch does not fit (an offset that does not match, an entry past the end), the store asks for a
 * new snapshot instead of guessing. It also records what changed since the renderer last looked, so a frame
 * renders only that. A long conversation arrives as its tail (`first` > 0); older entries are prepended when the
 * host sends them on request. Indexes are always the entry's index in the whole conversation. No DOM: unit-tested
 * in Node.
 */

export type EntryChange = 'append' | 'replace';

/**
 * An answer flooding in (src/panel/floodGaps.ts): after the page's own text, `skip` characters still to come, then the
 * newest text the host sent first.
 */
export interface Gap {
  readonly skip: number;
  readonly newest: string;
}

/** What happened to an entry's gap since the renderer last looked. */
export interface GapChange {
  /** The characters still to come. */
  skip: number;
  /** The newest text was replaced (by `newest[0]`), rather than grown by `newest`. */
  reset: boolean;
  readonly newest: string[];
  /** The gap closed: the newest text joined the entry's text (and is in `appended`). */
  closed: boolean;
  /** Closed: where in the entry's `appended` pieces the newest text is (absent: not there, the entry was replaced). */
  joined?: number;
}

export interface StoreChanges {
  /** A snapshot arrived: render everything again. */
  reset: boolean;
  /** Older entries were prepended (the page asked for them). */
  earlier: boolean;
  readonly entries: Map<number, EntryChange>;
  /**
   * For an entry whose change is 'append': the text appended, in order. Renderers take these rather than slicing the
   * entry's text, since reading a string built by appending copies all of it (a 10 MiB answer, every frame).
   */
  readonly appended: Map<number, string[]>;
  /** Entries whose flood gap opened, moved, grew or closed. */
  readonly gaps: Map<number, GapChange>;
  header: boolean;
  plan: boolean;
  commands: boolean;
  turn: boolean;
  queue: boolean;
}

export type ApplyResult = 'applied' | 'ignored' | 'resync';

/** The entries whose text grows by patches. */
type TextEntry = Extract<EntryView, { kind: 'agent' | 'user' | 'thought' }>;

function isTextEntry(entry: EntryView | undefined): entry is TextEntry {
  return entry?.kind === 'agent' || entry?.kind === 'user' || entry?.kind === 'thought';
}

const EMPTY_HEADER: HeaderView = { status: 'none', sessions: [], configOptions: [], capabilities: { image: false, embeddedContext: false } };

export class TranscriptStore {
  epoch = -1;
  /** The index of `entries[0]` in the whole conversation; the host keeps the ones before it. */
  first = 0;
  /** Entries `first`, `first + 1`, …: use `entry(index)` and `length` to address them by conversation index. */
  entries: EntryView[] = [];
  header: HeaderView = EMPTY_HEADER;
  plan: readonly PlanEntryView[] = [];
  commands: readonly CommandView[] = [];
  turn: TurnView = 'idle';
  /** Messages sent during the turn, waiting for it to end, in the order they will be sent. */
  queue: readonly QueuedView[] = [];
  private changes: StoreChanges = noChanges();
  /** Answers flooding in: what each one's text is still missing, by entry index (the entry's text ends before it). */
  private readonly gapped = new Map<number, { skip: number; newest: string }>();

  /** Entries in the whole conversation (the held ones and the older ones the host keeps). */
  get length(): number {
    return this.first + this.entries.length;
  }

  /** Entry `index` of the conversation, when the page holds it. */
  entry(index: number): EntryView | undefined {
    return index >= this.first ? this.entries[index - this.first] : undefined;
  }

  apply(message: SnapshotMessage | PatchMessage | EarlierMessage): ApplyResult {
    if (message.type === 'earlier') return this.prepend(message);
    if (message.type === 'snapshot') {
      this.epoch = message.epoch;
      this.gapped.clear();
      this.first = message.first ?? 0;
      this.entries = [...message.entries];
      this.header = message.header;
      this.plan = message.plan;
      this.commands = message.commands;
      this.turn = message.turn;
      // Required, but a snapshot without it (test/bench/webview.mjs makes its own) must not break the page.
      this.queue = message.queue ?? [];
      this.changes = { ...noChanges(), reset: true, header: true, plan: true, commands: true, turn: true, queue: true };
      return 'applied';
    }
    if (message.epoch !== this.epoch) return 'ignored';
    for (const op of message.ops) {
      switch (op.op) {
        case 'entry':
          if (op.index > this.length) return 'resync';
          if (op.index < this.first) break; // held by the host; sent fresh if the page ever asks for it
          this.entries[op.index - this.first] = op.entry;
          // the whole entry, so nothing of it is still on its way
          if (this.gapped.delete(op.index)) this.markGap(op.index, 0, undefined, false).closed = true;
          this.markEntry(op.index, 'replace');
          break;
        case 'append': {
          if (op.index < this.first) break;
          const entry = this.entry(op.index);
          if (!isTextEntry(entry)) return 'resync';
          const gap = this.gapped.get(op.index);
          if (op.skip !== undefined) {
            // a flood: the newest text, after `skip` characters to come (replacing the newest text held before)
            if (entry.text.length !== op.offset || op.skip <= 0) return 'resync';
            this.gapped.set(op.index, { skip: op.skip, newest: op.delta });
            this.markGap(op.index, op.skip, op.delta, true);
            break;
          }
          if (gap) {
            if (entry.text.length + gap.skip + gap.newest.length !== op.offset) return 'resync';
            gap.newest += op.delta;
            this.markGap(op.index, gap.skip, op.delta, false);
            break;
          }
          if (entry.text.length !== op.offset) return 'resync';
          this.appendText(op.index, entry, op.delta);
          break;
        }
        case 'fill': {
          if (op.index < this.first) break;
          const entry = this.entry(op.index);
          const gap = this.gapped.get(op.index);
          if (!isTextEntry(entry) || !gap || entry.text.length !== op.offset || op.delta.length > gap.skip) return 'resync';
          gap.skip -= op.delta.length;
          const filled = this.appendText(op.index, entry, op.delta);
          if (gap.skip > 0) {
            this.markGap(op.index, gap.skip, undefined, false);
            break;
          }
          // closed: the newest text follows the text now
          this.gapped.delete(op.index);
          this.appendText(op.index, filled, gap.newest);
          const pieces = this.changes.appended.get(op.index);
          Object.assign(this.markGap(op.index, 0, undefined, false), { closed: true, joined: pieces ? pieces.length - 1 : undefined });
          break;
        }
        case 'header':
          this.header = op.header;
          this.changes.header = true;
          break;
        case 'plan':
          this.plan = op.plan;
          this.changes.plan = true;
          break;
        case 'commands':
          this.commands = op.commands;
          this.changes.commands = true;
          break;
        case 'turn':
          this.turn = op.turn;
          this.changes.turn = true;
          break;
        case 'queue':
          this.queue = op.queue;
          this.changes.queue = true;
          break;
      }
    }
    return 'applied';
  }

  /** The gap of message `index` as the page holds it (an answer still flooding in), if any. */
  gap(index: number): Gap | undefined {
    return this.gapped.get(index);
  }

  /** Appends `delta` to entry `index` (`entry`, as held now); returns the grown entry. */
  private appendText(index: number, entry: TextEntry, delta: string): TextEntry {
    const grown = { ...entry, text: entry.text + delta };
    this.entries[index - this.first] = grown;
    this.markEntry(index, 'append');
    if (this.changes.entries.get(index) === 'append') {
      const pieces = this.changes.appended.get(index);
      if (pieces) pieces.push(delta);
      else this.changes.appended.set(index, [delta]);
    }
    return grown;
  }

  private markGap(index: number, skip: number, newest: string | undefined, reset: boolean): GapChange {
    let change = this.changes.gaps.get(index);
    if (!change || reset) {
      change = { skip, reset: reset || (change?.reset ?? false), newest: [], closed: false };
      this.changes.gaps.set(index, change);
    }
    change.skip = skip;
    if (newest !== undefined) change.newest.push(newest);
    return change;
  }

  /** Older entries that end where the held ones begin; anything else is a stale answer and is ignored. */
  private prepend(message: EarlierMessage): ApplyResult {
    if (message.epoch !== this.epoch || message.entries.length === 0) return 'ignored';
    if (message.first + message.entries.length !== this.first) return 'ignored';
    this.entries = [...message.entries, ...this.entries];
    this.first = message.first;
    this.changes.earlier = true;
    return 'applied';
  }

  /**
   * Lets go of the entries before `index` (the host keeps them; "Show earlier" asks for them again), so a page that
   * follows a day-long stream holds a bounded tail, not the whole history.
   */
  forget(index: number): void {
    if (index <= this.first) return;
    const drop = Math.min(index, this.length) - this.first;
    this.entries.splice(0, drop);
    for (const gapped of this.gapped.keys()) if (gapped < this.first + drop) this.gapped.delete(gapped);
    this.first += drop;
  }

  /** What changed since the last call. */
  takeChanges(): StoreChanges {
    const changes = this.changes;
    this.changes = noChanges();
    return changes;
  }

  hasChanges(): boolean {
    const c = this.changes;
    return c.reset || c.earlier || c.entries.size > 0 || c.gaps.size > 0 || c.header || c.plan || c.commands || c.turn || c.queue;
  }

  private markEntry(index: number, change: EntryChange): void {
    // A replace after an append (or the other way round) in one frame is a replace.
    const before = this.changes.entries.get(index);
    this.changes.entries.set(index, before === 'replace' || change === 'replace' ? 'replace' : 'append');
    if (change === 'replace') this.changes.appended.delete(index);
  }
}

function noChanges(): StoreChanges {
  return { reset: false, earlier: false, entries: new Map(), appended: new Map(), gaps: new Map(), header: false, plan: false, commands: false, turn: false, queue: false };
}
