import type { SessionUpdateOf } from '../acp/schema/sessionUpdate';
import type { Entry } from './state';

type CompactionEntry = Extract<Entry, { kind: 'compaction' }>;

/** What the compaction reducer needs from the session state that holds the transcript. */
export interface CompactionHost {
  readonly entries: readonly Entry[];
  /** Appends a compaction entry (its id given by the host); returns its index. */
  add(entry: Omit<CompactionEntry, 'id'>): number;
  /** Entry `index` changed. */
  changed(index: number): void;
}

/**
 * Context compactions in the transcript (DIGEST §9 "Compaction semantics"): one entry per `compactionId`, placed
 * where the first update or chunk for it arrived. Chunks append to its summary while it is in progress; a concrete
 * `summary` replaces what was accumulated, `null` or `[]` clears it; `error` follows the same patch rules.
 */
export class Compactions {
  /** Index of each compaction's entry; checked on use, since entries can be removed or restored meanwhile. */
  private readonly index = new Map<string, number>();

  constructor(private readonly host: CompactionHost) {}

  update(update: SessionUpdateOf<'compaction_update'>): void {
    const found = this.find(update.compactionId);
    if (!found) {
      this.create(update.compactionId, update.status, update.summary ?? [], update.error ?? undefined);
      return;
    }
    const [i, entry] = found;
    entry.status = update.status;
    if (update.summary !== undefined) entry.summary = update.summary ?? [];
    if (update.error !== undefined) entry.error = update.error ?? undefined;
    this.host.changed(i);
  }

  chunk(update: SessionUpdateOf<'compaction_summary_chunk'>): void {
    const found = this.find(update.compactionId);
    if (!found) {
      this.create(update.compactionId, 'in_progress', [update.content], undefined);
      return;
    }
    const [i, entry] = found;
    // A finished compaction's summary is what its last update said; late chunks do not change it.
    if (entry.status !== 'in_progress') return;
    const last = entry.summary[entry.summary.length - 1];
    if (last?.type === 'text' && update.content.type === 'text') entry.summary[entry.summary.length - 1] = { ...last, text: last.text + update.content.text };
    else entry.summary.push(update.content);
    this.host.changed(i);
  }

  private create(compactionId: string, status: string, summary: CompactionEntry['summary'], error: string | undefined): void {
    const i = this.host.add({ kind: 'compaction', compactionId, status, summary: [...summary], ...(error !== undefined ? { error } : {}) });
    this.index.set(compactionId, i);
  }

  private find(compactionId: string): [number, CompactionEntry] | undefined {
    const entries = this.host.entries;
    const known = this.index.get(compactionId);
    const at = (i: number | undefined) => {
      const entry = i === undefined ? undefined : entries[i];
      return entry?.kind === 'compaction' && entry.compactionId === compactionId ? entry : undefined;
    };
    const hit = at(known);
    if (hit) return [known!, hit];
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = at(i);
      if (entry) {
        this.index.set(compactionId, i);
        return [i, entry];
      }
    }
    this.index.delete(compactionId);
    return undefined;
  }
}
