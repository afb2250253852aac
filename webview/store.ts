import type { CommandView, EntryView, HeaderView, PatchMessage, PlanEntryView, SnapshotMessage, TurnView } from '../src/panel/protocol';

/**
 * The page's copy of what the host sent: replaced by each snapshot, updated by patches. It is a cache, not a source
 * of truth: when a patch does not fit (an offset that does not match, an entry past the end), the store asks for a
 * new snapshot instead of guessing. It also records what changed since the renderer last looked, so a frame
 * renders only that. No DOM: unit-tested in Node.
 */

export type EntryChange = 'append' | 'replace';

export interface StoreChanges {
  /** A snapshot arrived: render everything again. */
  reset: boolean;
  readonly entries: Map<number, EntryChange>;
  header: boolean;
  plan: boolean;
  commands: boolean;
  turn: boolean;
}

export type ApplyResult = 'applied' | 'ignored' | 'resync';

const EMPTY_HEADER: HeaderView = { status: 'none', sessions: [], configOptions: [], capabilities: { image: false, embeddedContext: false } };

export class TranscriptStore {
  epoch = -1;
  entries: EntryView[] = [];
  header: HeaderView = EMPTY_HEADER;
  plan: readonly PlanEntryView[] = [];
  commands: readonly CommandView[] = [];
  turn: TurnView = 'idle';
  private changes: StoreChanges = noChanges();

  apply(message: SnapshotMessage | PatchMessage): ApplyResult {
    if (message.type === 'snapshot') {
      this.epoch = message.epoch;
      this.entries = [...message.entries];
      this.header = message.header;
      this.plan = message.plan;
      this.commands = message.commands;
      this.turn = message.turn;
      this.changes = { ...noChanges(), reset: true, header: true, plan: true, commands: true, turn: true };
      return 'applied';
    }
    if (message.epoch !== this.epoch) return 'ignored';
    for (const op of message.ops) {
      switch (op.op) {
        case 'entry':
          if (op.index > this.entries.length) return 'resync';
          this.entries[op.index] = op.entry;
          this.markEntry(op.index, 'replace');
          break;
        case 'append': {
          const entry = this.entries[op.index];
          if (!entry || !('text' in entry) || (entry.kind !== 'agent' && entry.kind !== 'user' && entry.kind !== 'thought')) return 'resync';
          if (entry.text.length !== op.offset) return 'resync';
          this.entries[op.index] = { ...entry, text: entry.text + op.delta };
          this.markEntry(op.index, 'append');
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
      }
    }
    return 'applied';
  }

  /** What changed since the last call. */
  takeChanges(): StoreChanges {
    const changes = this.changes;
    this.changes = noChanges();
    return changes;
  }

  hasChanges(): boolean {
    const c = this.changes;
    return c.reset || c.entries.size > 0 || c.header || c.plan || c.commands || c.turn;
  }

  private markEntry(index: number, change: EntryChange): void {
    // A replace after an append (or the other way round) in one frame is a replace.
    const before = this.changes.entries.get(index);
    this.changes.entries.set(index, before === 'replace' || change === 'replace' ? 'replace' : 'append');
  }
}

function noChanges(): StoreChanges {
  return { reset: false, entries: new Map(), header: false, plan: false, commands: false, turn: false };
}
