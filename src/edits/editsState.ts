import type { FileFormat } from '../workspace/textCodec';
import type { BaselineSource } from './baselines';

/**
 * Everything the edits layer remembers, as plain data with content kept by hash (the blob store holds the bytes):
 * the files under review with their baselines, each session's per-turn checkpoints, and the content last seen of each
 * file we follow. Serialized to one JSON file in the extension's storage, so pending changes and checkpoints survive
 * a window reload. Plain Node.
 */

export const STATE_VERSION = 1;

/** A hash in the blob store, or null for "the file did not exist". */
export type ContentRef = string | null;

export interface ReviewEntry {
  readonly path: string;
  /** Persistent id of the session whose agent made the change (`agentId/sessionId`). */
  session: string;
  baseline: ContentRef;
  /** How the baseline's bytes decode (and how region edits are encoded back). */
  format: FileFormat;
  source: BaselineSource;
  /** Turn the baseline was taken in; a better source may replace it only within that turn and before any decision. */
  turn: number;
  /** A hunk was accepted or rejected: the baseline is now the user's, never replaced by a late source. */
  decided: boolean;
  /**
   * What the file held after the last change we know of (the agent's, or a decision of ours). When the file holds
   * something else, someone else changed it since, and a whole-file reject asks before discarding that.
   */
  expected?: ContentRef;
}

export interface SessionCheckpoints {
  readonly id: string;
  /** ms since epoch of the last change, to forget old sessions first. */
  updated: number;
  /** turn index → path → content before that turn's first change of the path. */
  readonly turns: Map<number, Map<string, ContentRef>>;
}

export type KnownOrigin = 'session' | 'document';

export interface HeldWrite {
  session: string;
  /** The agent's text as it stands (rejected hunks already dropped from it), stored as UTF-8: a blob hash. */
  text: string;
  /** The file's text when the agent wrote (null: it did not exist). */
  original: ContentRef;
}

/**
 * A change outside the text review: a file whose content before the turn was not recorded (skipped by a cap,
 * excluded, unreadable), or one whose bytes are not text (binary). Listed with the reviews so nothing changes unseen;
 * Reject only when `baseline` holds the exact bytes before.
 */
export interface OpaqueChange {
  readonly path: string;
  session: string;
  turn: number;
  kind: 'modified' | 'created' | 'deleted';
  /** The content before the turn (null: it did not exist); absent when it was not recorded. */
  baseline?: ContentRef;
  /** Why there is no text diff, for the list: "original not recorded (over the 16 MB cap)", "binary". */
  why: string;
}

export interface KnownContent {
  ref: ContentRef;
  origin: KnownOrigin;
}

const MAX_SESSIONS = 30;

export class EditsState {
  readonly reviews = new Map<string, ReviewEntry>();
  readonly sessions = new Map<string, SessionCheckpoints>();
  /** path → the content we last saw there. */
  readonly known = new Map<string, KnownContent>();
  /** Agent writes held over unsaved user changes, waiting for a decision: path → the agent's text, the file's. */
  readonly held = new Map<string, HeldWrite>();
  /** Changes with no text diff to review, by path. */
  readonly opaque = new Map<string, OpaqueChange>();

  /** Records the content before a turn's first change of a path. False when the turn already has one for it. */
  recordCheckpoint(session: string, turn: number, path: string, before: ContentRef, now = Date.now()): boolean {
    let s = this.sessions.get(session);
    if (!s) {
      s = { id: session, updated: now, turns: new Map() };
      this.sessions.set(session, s);
      this.forgetOldSessions();
    }
    s.updated = now;
    let files = s.turns.get(turn);
    if (!files) s.turns.set(turn, (files = new Map()));
    if (files.has(path)) return false;
    files.set(path, before);
    return true;
  }

  /** Replaces a turn's checkpoint of a path (a better baseline turned up within the turn). */
  replaceCheckpoint(session: string, turn: number, path: string, before: ContentRef): void {
    this.sessions.get(session)?.turns.get(turn)?.set(path, before);
  }

  /**
   * What restoring to before `turn` means: every file changed in that turn or later, with its content before the
   * earliest of those turns that changed it.
   */
  checkpoint(session: string, turn: number): Map<string, ContentRef> {
    const result = new Map<string, ContentRef>();
    const s = this.sessions.get(session);
    if (!s) return result;
    const turns = [...s.turns.keys()].filter((t) => t >= turn).sort((a, b) => a - b);
    for (const t of turns) {
      for (const [path, before] of s.turns.get(t)!) if (!result.has(path)) result.set(path, before);
    }
    return result;
  }

  /**
   * Every blob something still points at; the rest can be deleted. What the open documents held is only needed while
   * they are open, so it is neither saved nor kept alive across a reload.
   */
  referencedBlobs(persistedOnly = false): Set<string> {
    const refs = new Set<string>();
    const add = (ref: ContentRef) => {
      if (ref) refs.add(ref);
    };
    for (const r of this.reviews.values()) add(r.baseline);
    for (const s of this.sessions.values()) for (const files of s.turns.values()) for (const ref of files.values()) add(ref);
    for (const k of this.known.values()) if (!persistedOnly || k.origin === 'session') add(k.ref);
    for (const h of this.held.values()) {
      add(h.text);
      add(h.original);
    }
    for (const o of this.opaque.values()) if (o.baseline !== undefined) add(o.baseline);
    return refs;
  }

  private forgetOldSessions(): void {
    if (this.sessions.size <= MAX_SESSIONS) return;
    const oldest = [...this.sessions.values()].sort((a, b) => a.updated - b.updated);
    for (const s of oldest.slice(0, this.sessions.size - MAX_SESSIONS)) this.sessions.delete(s.id);
  }

  toJSON(): PersistedState {
    return {
      version: STATE_VERSION,
      reviews: [...this.reviews.values()].map((r) => ({ ...r, format: { ...r.format } })),
      sessions: [...this.sessions.values()].map((s) => ({
        id: s.id,
        updated: s.updated,
        turns: [...s.turns].map(([turn, files]) => ({ turn, files: Object.fromEntries(files) })),
      })),
      known: Object.fromEntries([...this.known].filter(([, k]) => k.origin === 'session').map(([path, k]) => [path, [k.ref, k.origin]])),
      held: Object.fromEntries([...this.held].map(([path, h]) => [path, { ...h }])),
      opaque: [...this.opaque.values()].map((o) => ({ ...o })),
    };
  }

  /** Lenient: a damaged or foreign file yields what can be read of it (an unknown version yields nothing). */
  static fromJSON(data: unknown): EditsState {
    const state = new EditsState();
    if (!isObject(data) || data.version !== STATE_VERSION) return state;
    for (const r of Array.isArray(data.reviews) ? data.reviews : []) {
      if (!isObject(r) || typeof r.path !== 'string' || !isRef(r.baseline)) continue;
      const format = isObject(r.format) && typeof r.format.encoding === 'string' ? { encoding: r.format.encoding, bom: r.format.bom === true } : { encoding: 'utf8', bom: false };
      state.reviews.set(r.path, {
        path: r.path,
        session: typeof r.session === 'string' ? r.session : '',
        baseline: r.baseline,
        format,
        source: typeof r.source === 'string' ? (r.source as BaselineSource) : 'session',
        turn: typeof r.turn === 'number' ? r.turn : 0,
        decided: r.decided === true,
        ...(isRef(r.expected) ? { expected: r.expected } : {}),
      });
    }
    for (const s of Array.isArray(data.sessions) ? data.sessions : []) {
      if (!isObject(s) || typeof s.id !== 'string') continue;
      const turns = new Map<number, Map<string, ContentRef>>();
      for (const t of Array.isArray(s.turns) ? s.turns : []) {
        if (!isObject(t) || typeof t.turn !== 'number' || !isObject(t.files)) continue;
        turns.set(t.turn, new Map(Object.entries(t.files).filter((e): e is [string, ContentRef] => isRef(e[1]))));
      }
      state.sessions.set(s.id, { id: s.id, updated: typeof s.updated === 'number' ? s.updated : 0, turns });
    }
    if (isObject(data.known)) {
      for (const [path, value] of Object.entries(data.known)) {
        if (Array.isArray(value) && isRef(value[0])) state.known.set(path, { ref: value[0], origin: value[1] === 'document' ? 'document' : 'session' });
      }
    }
    if (isObject(data.held)) {
      for (const [path, h] of Object.entries(data.held)) {
        if (isObject(h) && typeof h.session === 'string' && isRef(h.text) && h.text !== null && isRef(h.original)) {
          state.held.set(path, { session: h.session, text: h.text, original: h.original });
        }
      }
    }
    for (const o of Array.isArray(data.opaque) ? data.opaque : []) {
      if (!isObject(o) || typeof o.path !== 'string' || typeof o.session !== 'string' || typeof o.why !== 'string') continue;
      const kind = o.kind === 'created' || o.kind === 'deleted' ? o.kind : 'modified';
      const baseline = isRef(o.baseline) ? { baseline: o.baseline } : {};
      state.opaque.set(o.path, { path: o.path, session: o.session, turn: typeof o.turn === 'number' ? o.turn : 0, kind, why: o.why, ...baseline });
    }
    return state;
  }
}

export interface PersistedState {
  version: number;
  reviews: ReviewEntry[];
  sessions: { id: string; updated: number; turns: { turn: number; files: Record<string, ContentRef> }[] }[];
  known: Record<string, [ContentRef, KnownOrigin]>;
  held: Record<string, HeldWrite>;
  opaque?: OpaqueChange[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isRef(v: unknown): v is ContentRef {
  return v === null || (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v));
}
