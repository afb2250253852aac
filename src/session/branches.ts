import { z } from 'zod';

/**
 * Which conversations are branches of which: an edited (or regenerated) message continues in a new session, and the
 * conversation it came from is kept as another branch of that message. Each branch records the conversation it was
 * made from (`parent`) and the user turn it differs at (`at`, counted as the edits layer counts turns: the user
 * messages before it). Its turns before `at` are copies of its parent's; from `at` on they are its own.
 *
 * The alternatives of a message are the conversations that share everything before it and differ at it; they are
 * listed in the order they were made, and "Branch 2 of 3" is the position of the one on screen. Pure: the VS Code
 * side keeps the tree in a file beside the transcripts (src/agents/branchIndex.ts).
 */
export interface BranchRecord {
  readonly key: string;
  readonly parent?: string;
  readonly at?: number;
  /** Increases with each record: the order of alternatives. */
  readonly order: number;
}

export interface BranchPosition {
  /** The conversations that differ at this turn, oldest first. */
  readonly keys: readonly string[];
  /** Index into `keys` of the one that holds the conversation asked about. */
  readonly index: number;
}

const RecordSchema = z.object({
  key: z.string().min(1),
  parent: z.string().min(1).optional(),
  at: z.number().int().nonnegative().optional(),
  order: z.number().int().nonnegative(),
});
const TreeSchema = z.object({ version: z.literal(1), records: z.array(z.unknown()) });

export class BranchTree {
  private readonly records = new Map<string, BranchRecord>();
  private nextOrder = 0;

  constructor(records: readonly BranchRecord[] = []) {
    for (const record of records) this.put(record);
    this.dropDangling();
  }

  /** The saved form; a damaged file yields the records that can be read, and a record whose parent is gone is a root. */
  static parse(raw: unknown): BranchTree {
    const parsed = TreeSchema.safeParse(raw);
    if (!parsed.success) return new BranchTree();
    const records = parsed.data.records.flatMap((r) => {
      const record = RecordSchema.safeParse(r);
      return record.success && (record.data.parent === undefined) === (record.data.at === undefined) ? [record.data] : [];
    });
    return new BranchTree(records);
  }

  toJSON(): { version: 1; records: BranchRecord[] } {
    return { version: 1, records: [...this.records.values()] };
  }

  get size(): number {
    return this.records.size;
  }

  has(key: string): boolean {
    return this.records.has(key);
  }

  keys(): string[] {
    return [...this.records.keys()];
  }

  /** `child` continues `parent`'s conversation up to user turn `at`, where it differs (an edit, a regenerate). */
  add(child: string, parent: string, at: number): void {
    if (child === parent || this.isAncestor(child, parent)) throw new Error(`A conversation cannot branch from itself (${child})`);
    if (!this.records.has(parent)) this.put({ key: parent, order: this.nextOrder });
    this.put({ key: child, parent, at, order: this.nextOrder });
  }

  /**
   * Forgets `key` (its conversation was deleted or is gone). Its branches keep what they shared with it: each is
   * hung on its parent at the earlier of the two turns; a root's first branch becomes the root of the others.
   */
  remove(key: string): void {
    const gone = this.records.get(key);
    if (!gone) return;
    this.records.delete(key);
    const children = [...this.records.values()].filter((r) => r.parent === key).sort((a, b) => a.order - b.order);
    if (children.length === 0) return;
    if (gone.parent !== undefined && gone.at !== undefined) {
      for (const child of children) this.records.set(child.key, { ...child, parent: gone.parent, at: Math.min(child.at!, gone.at) });
      return;
    }
    const [heir, ...others] = children;
    this.records.set(heir.key, { key: heir.key, order: heir.order });
    for (const child of others) this.records.set(child.key, { ...child, parent: heir.key, at: Math.min(child.at!, heir.at!) });
  }

  /** The alternatives of conversation `key`'s user turn `turn`; undefined when there is only the one. */
  alternativesAt(key: string, turn: number): BranchPosition | undefined {
    if (!this.records.has(key)) return undefined;
    const member = this.owner(key, turn);
    const first = this.firstVersion(member, turn);
    const keys = [...this.records.values()]
      .filter((r) => r.key === first || (r.at === turn && this.firstVersion(r.key, turn) === first))
      .sort((a, b) => a.order - b.order)
      .map((r) => r.key);
    if (keys.length < 2) return undefined;
    return { keys, index: keys.indexOf(member) };
  }

  /** Every user turn of conversation `key` that has alternatives, with where `key` stands among them. */
  positionsIn(key: string): Map<number, BranchPosition> {
    const out = new Map<number, BranchPosition>();
    if (!this.records.has(key)) return out;
    const turns = new Set<number>();
    for (const r of this.records.values()) if (r.at !== undefined) turns.add(r.at);
    for (const turn of [...turns].sort((a, b) => a - b)) {
      const position = this.alternativesAt(key, turn);
      if (position) out.set(turn, position);
    }
    return out;
  }

  /** The conversation whose own message `key` shows at `turn`: turns before a branch point are its parent's. */
  private owner(key: string, turn: number): string {
    let record = this.records.get(key)!;
    while (record.parent !== undefined && record.at !== undefined && turn < record.at) record = this.records.get(record.parent)!;
    return record.key;
  }

  /** The oldest version of `key`'s message at `turn`: up through every branch made exactly there. */
  private firstVersion(key: string, turn: number): string {
    let record = this.records.get(this.owner(key, turn))!;
    while (record.parent !== undefined && record.at === turn) record = this.records.get(this.owner(record.parent, turn))!;
    return record.key;
  }

  private isAncestor(candidate: string, of: string): boolean {
    for (let r = this.records.get(of); r?.parent !== undefined; r = this.records.get(r.parent)) if (r.parent === candidate) return true;
    return false;
  }

  private put(record: BranchRecord): void {
    this.records.set(record.key, record);
    this.nextOrder = Math.max(this.nextOrder, record.order + 1);
  }

  /** Records loaded whose parent is missing, or that loop, become roots: their transcript is still worth showing. */
  private dropDangling(): void {
    for (const record of [...this.records.values()]) {
      if (record.parent === undefined) continue;
      const seen = new Set([record.key]);
      let broken = false;
      for (let r: BranchRecord | undefined = record; r?.parent !== undefined; r = this.records.get(r.parent)) {
        if (!this.records.has(r.parent) || seen.has(r.parent)) {
          broken = true;
          break;
        }
        seen.add(r.parent);
      }
      if (broken) this.records.set(record.key, { key: record.key, order: record.order });
    }
  }
}
