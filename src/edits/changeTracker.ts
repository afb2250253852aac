import * as vscode from 'vscode';
import type { ToolCallState } from '../session/state';
import type { Sandbox } from '../workspace/sandbox';
import { decodeText, encodeText, type FileFormat } from '../workspace/textCodec';
import { chooseBaseline, sourceRank, type BaselineEvidence, type BaselineSource, type DiffReport, type Known } from './baselines';
import type { BlobStore } from './blobStore';
import type { ContentRef, EditsState, KnownOrigin } from './editsState';
import { configuredEncoding, isText, newFileFormat, readDisk } from './fileAccess';
import { gitHeadVersion } from './gitBaseline';
import type { PendingChanges } from './pendingChanges';

/** Watcher events keep arriving for a moment after the agent answers the prompt. */
const TURN_GRACE_MS = 1000;
const EVENT_DELAY_MS = 100;
const EDIT_KINDS = new Set(['edit', 'delete', 'move']);
const MAX_KNOWN = 10_000;

type Hint = 'created' | 'changed' | 'deleted' | 'reported';

export interface TrackedSession {
  readonly key: string;
  /** The session's current sandbox (replaced when the agent restarts with new file access). */
  sandbox: Sandbox;
  turn?: Turn;
}

/** One prompt turn of one session: what it changed first, and the clues gathered for baselines. */
export class Turn {
  running = true;
  endedAt = 0;
  /** path → content before this turn's first change of it (the checkpoint). */
  readonly changed = new Map<string, ContentRef>();
  readonly evidence = new Map<string, BaselineEvidence>();
  /** Read when an edit tool call naming the path was announced. */
  readonly snapshots = new Map<string, Promise<Known | undefined>>();
  /** path → toolCallId → that call's latest diff, calls in the order first seen. */
  readonly diffs = new Map<string, Map<string, DiffReport>>();
  readonly mentioned = new Set<string>();
  constructor(
    readonly index: number,
    readonly session: TrackedSession,
  ) {}

  diffsFor(path: string): DiffReport[] {
    return [...(this.diffs.get(path)?.values() ?? [])];
  }
}

/**
 * Notices what agents change, however they change it: our own writes report in through `recordChange`; agents that
 * write to disk themselves show up as file-system events during their turn and as `diff` content in their tool
 * calls. The first change of a file in a turn records the file's baseline (for the review) and its checkpoint (for
 * "restore to before this message"). Outside turns, files we follow are kept fresh (the user, git, a formatter), so a
 * later baseline is never a stale one.
 */
export class ChangeTracker implements vscode.Disposable {
  private readonly sessions = new Map<string, TrackedSession>();
  private readonly queued = new Map<string, { hint: Hint; timer: ReturnType<typeof setTimeout> }>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly watched = new Map<string, vscode.FileSystemWatcher>();

  constructor(
    private readonly state: EditsState,
    private readonly blobs: BlobStore,
    private readonly pending: PendingChanges,
    private readonly persist: () => void,
    private readonly log: (line: string) => void,
    private readonly follow: (path: string, line?: number) => void,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.rememberDocument(d, 'open')),
      vscode.workspace.onDidSaveTextDocument((d) => this.rememberDocument(d, 'save')),
      vscode.workspace.onDidCloseTextDocument((d) => this.forgetDocument(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === 'file' && this.pending.has(e.document.uri.fsPath)) this.pending.scheduleRefresh(e.document.uri.fsPath);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.watchWorkspaceFolders()),
    );
    this.watchWorkspaceFolders();
    for (const d of vscode.workspace.textDocuments) this.rememberDocument(d, 'open');
  }

  openSession(key: string, sandbox: Sandbox): TrackedSession {
    const session = this.sessions.get(key) ?? { key, sandbox };
    session.sandbox = sandbox;
    this.sessions.set(key, session);
    for (const root of sandbox.roots) this.watch(root);
    return session;
  }

  closeSession(key: string): void {
    this.sessions.delete(key);
  }

  session(key: string): TrackedSession | undefined {
    return this.sessions.get(key);
  }

  turnStarted(key: string, index: number): void {
    const session = this.sessions.get(key);
    if (session) session.turn = new Turn(index, session);
  }

  turnEnded(key: string, index: number): void {
    const turn = this.sessions.get(key)?.turn;
    if (!turn || turn.index !== index) return;
    turn.running = false;
    turn.endedAt = Date.now();
  }

  /** The running turn of the session, if any (a write outside a turn counts toward the last one). */
  currentTurn(key: string): Turn | undefined {
    return this.sessions.get(key)?.turn;
  }

  /** A tool call appeared or changed: note its diffs, snapshot files an edit is about to touch, follow it. */
  onToolCall(key: string, call: ToolCallState): void {
    const session = this.sessions.get(key);
    const turn = session?.turn;
    if (!session || !turn) return;
    const inside = (p: string) => {
      try {
        return session.sandbox.checkLexical(p);
      } catch {
        return undefined;
      }
    };
    const named: string[] = [];
    for (const item of call.content) {
      if (item.type !== 'diff') continue;
      const p = inside(item.path);
      if (!p) continue;
      named.push(p);
      let calls = turn.diffs.get(p);
      if (!calls) turn.diffs.set(p, (calls = new Map()));
      calls.set(call.toolCallId, { oldText: item.oldText, newText: item.newText });
      // The agent says it changed the file: look even if the watcher missed it, and let a whole-file diff improve
      // a baseline taken from a weaker source a moment ago.
      this.queue(p, 'reported', 300);
    }
    for (const location of call.locations) {
      const p = inside(location.path);
      if (p) named.push(p);
    }
    for (const p of named) turn.mentioned.add(p);
    const editing = EDIT_KINDS.has(call.kind) || call.content.some((c) => c.type === 'diff');
    if (editing && (call.status === 'pending' || call.status === 'in_progress')) {
      for (const p of named) if (!turn.snapshots.has(p) && !this.state.known.has(p)) turn.snapshots.set(p, this.snapshot(p));
    }
    if (editing && named.length > 0) {
      const line = call.locations.find((l) => inside(l.path) === named[0])?.line ?? undefined;
      this.follow(named[0], line === undefined ? undefined : Math.max(0, line - 1));
    }
  }

  /**
   * Our own write is about to change a file: record its exact content before (`before`, null when it did not exist)
   * as the turn's checkpoint and, if the file is not under review yet, as its baseline. Hold the review (see
   * `PendingChanges.hold`) until the write is done.
   */
  async recordChange(key: string, path: string, before: { bytes: Uint8Array; format: FileFormat } | null, review = true): Promise<void> {
    const session = this.sessions.get(key);
    if (session && !session.turn) {
      // A write outside any turn (rare) still gets a checkpoint, under turn 0.
      session.turn = new Turn(0, session);
      session.turn.running = false;
    }
    const turn = session?.turn;
    const ref = before ? this.blobs.put(before.bytes) : null;
    const format = before?.format ?? newFileFormat(path);
    if (turn && !turn.changed.has(path)) {
      turn.changed.set(path, ref);
      this.state.recordCheckpoint(key, turn.index, path, ref);
    }
    if (review && !this.pending.has(path)) {
      await this.pending.add({ path, session: key, baseline: ref, format, source: 'disk', turn: turn?.index ?? 0, decided: false }, false);
    }
    this.persist();
  }

  /** We wrote (or restored) a file ourselves: what is there now is known, so its watcher event is not a change. */
  noteOwnWrite(path: string, bytes: Uint8Array | null): void {
    const ref = bytes ? this.blobs.put(bytes) : null;
    this.setKnown(path, ref, 'session');
    const entry = this.pending.entry(path);
    if (entry) entry.expected = ref;
  }

  dispose(): void {
    for (const q of this.queued.values()) clearTimeout(q.timer);
    for (const w of this.watched.values()) w.dispose();
    for (const d of this.disposables) d.dispose();
  }

  private watchWorkspaceFolders(): void {
    for (const folder of vscode.workspace.workspaceFolders ?? []) this.watch(folder.uri.fsPath);
  }

  private watch(root: string): void {
    if (this.watched.has(root)) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**/*'));
    watcher.onDidCreate((uri) => this.onEvent(uri, 'created'));
    watcher.onDidChange((uri) => this.onEvent(uri, 'changed'));
    watcher.onDidDelete((uri) => this.onEvent(uri, 'deleted'));
    this.watched.set(root, watcher);
  }

  private onEvent(uri: vscode.Uri, hint: Hint): void {
    const path = uri.fsPath;
    if (ignored(path)) return;
    // Outside turns only files we already follow matter (to keep what we know of them fresh).
    if (!this.turnFor(path) && !this.state.known.has(path) && !this.pending.has(path)) return;
    this.queue(path, hint, EVENT_DELAY_MS);
  }

  private queue(path: string, hint: Hint, delayMs: number): void {
    const previous = this.queued.get(path);
    if (previous) clearTimeout(previous.timer);
    const strongest = previous && strength(previous.hint) > strength(hint) ? previous.hint : hint;
    const timer = setTimeout(() => {
      this.queued.delete(path);
      // One file at a time: its events are handled in order, never interleaved.
      const next = (this.chains.get(path) ?? Promise.resolve()).then(() => this.observe(path, strongest)).catch((e: unknown) => this.log(`Could not track ${path}: ${String(e)}`));
      this.chains.set(path, next);
      void next.then(() => {
        if (this.chains.get(path) === next) this.chains.delete(path);
      });
    }, delayMs);
    this.queued.set(path, { hint: strongest, timer });
  }

  private async observe(path: string, hint: Hint): Promise<void> {
    const disk = await readDisk(path);
    this.log(`${hint}: ${path} (${'missing' in disk ? 'missing' : 'unreadable' in disk ? disk.unreadable : 'text'}; turn ${this.turnFor(path)?.index ?? 'none'}; known ${this.state.known.has(path)})`);
    if ('unreadable' in disk) return;
    const nowRef = isText(disk) ? this.blobs.put(disk.bytes) : null;
    const prev = this.state.known.get(path);
    const turn = this.turnFor(path);
    if (prev && prev.ref === nowRef) {
      if (hint === 'reported' && turn) await this.reconsider(path, turn);
      return;
    }
    if (!turn) {
      // Not an agent's turn: the user, git or a formatter. The review (if any) follows the new content.
      if (prev) this.setKnown(path, nowRef, prev.origin);
      if (this.pending.has(path)) this.pending.scheduleRefresh(path, 0);
      return;
    }
    const current: Known = isText(disk) ? { text: disk.text, bytes: disk.bytes } : null;
    const currentFormat = isText(disk) ? disk.format : undefined;
    if (!turn.changed.has(path)) {
      const evidence = await this.gather(path, turn, prev, current, hint);
      let choice = chooseBaseline(evidence);
      if (!choice || choice.source === 'created') {
        const git = await gitHeadVersion(path);
        if (git) evidence.git = { text: decodeText(git, configuredEncoding(path)).text, bytes: git };
        choice = chooseBaseline(evidence);
      }
      if (!choice) {
        this.log(`Changed during the turn, but no earlier version is known (not open, not in git): ${path}`);
      } else {
        const { ref, format } = this.store(choice.content, currentFormat, path);
        turn.changed.set(path, ref);
        turn.evidence.set(path, evidence);
        this.state.recordCheckpoint(turn.session.key, turn.index, path, ref);
        if (!this.pending.has(path)) {
          await this.pending.add({ path, session: turn.session.key, baseline: ref, format, source: choice.source, turn: turn.index, decided: false });
        }
      }
    } else if (hint === 'reported') {
      await this.reconsider(path, turn);
    }
    this.setKnown(path, nowRef, 'session');
    const entry = this.pending.entry(path);
    if (entry) {
      // The agent's version: a later difference from it is someone else's change.
      entry.expected = nowRef;
      this.pending.scheduleRefresh(path, 0);
    }
  }

  /** A diff reported after the baseline was taken may be a better source (only within the turn, before decisions). */
  private async reconsider(path: string, turn: Turn): Promise<void> {
    const entry = this.pending.entry(path);
    const evidence = turn.evidence.get(path);
    if (!entry || !evidence || entry.decided || entry.turn !== turn.index || entry.session !== turn.session.key) return;
    const choice = chooseBaseline({ ...evidence, diffs: turn.diffsFor(path) });
    if (!choice || sourceRank(choice.source) >= sourceRank(entry.source)) return;
    const { ref } = this.store(choice.content, entry.format, path);
    this.state.replaceCheckpoint(turn.session.key, turn.index, path, ref);
    turn.changed.set(path, ref);
    this.pending.replaceBaseline(path, ref, choice.source as BaselineSource);
    this.log(`Baseline of ${path} now from ${choice.source}`);
  }

  private async gather(path: string, turn: Turn, prev: { ref: ContentRef; origin: KnownOrigin } | undefined, current: Known, hint: Hint): Promise<BaselineEvidence> {
    const evidence: BaselineEvidence = { current, appeared: hint === 'created' && prev === undefined, diffs: turn.diffsFor(path) };
    if (prev) {
      const known = prev.ref === null ? null : await this.blobs.get(prev.ref);
      if (known !== undefined) {
        const content: Known = known === null ? null : { text: decodeText(known, configuredEncoding(path)).text, bytes: Buffer.from(known) };
        if (prev.origin === 'document') evidence.document = content;
        else evidence.session = content;
      }
    }
    const snapshot = turn.snapshots.get(path);
    if (snapshot) {
      const s = await snapshot;
      if (s !== undefined) evidence.snapshot = s;
    }
    return evidence;
  }

  /** Content → blob: bytes as they were when we have them, else the text in the file's format. */
  private store(content: Known, currentFormat: FileFormat | undefined, path: string): { ref: ContentRef; format: FileFormat } {
    if (content === null) return { ref: null, format: currentFormat ?? newFileFormat(path) };
    if (content.bytes) return { ref: this.blobs.put(content.bytes), format: decodeText(content.bytes, configuredEncoding(path)).format };
    const format = currentFormat ?? newFileFormat(path);
    return { ref: this.blobs.put(encodeText(content.text, format)), format };
  }

  private async snapshot(path: string): Promise<Known | undefined> {
    const disk = await readDisk(path);
    if ('missing' in disk) return null;
    if ('unreadable' in disk) return undefined;
    return { text: disk.text, bytes: disk.bytes };
  }

  /** The turn a change of this path belongs to: a running turn whose roots hold it (or one that just ended and named it). */
  private turnFor(path: string): Turn | undefined {
    const now = Date.now();
    const turns = [...this.sessions.values()]
      .map((s) => s.turn)
      // After the answer, only late events for files the turn's tool calls named: anything else is someone else's.
      .filter((t): t is Turn => !!t && (t.running || (now - t.endedAt < TURN_GRACE_MS && t.mentioned.has(path))))
      .filter((t) => t.session.sandbox.roots.some((root) => t.session.sandbox.contains(root, path)));
    // Several sessions at work in the same folder: the one whose tool calls named the file, else one still running.
    return turns.find((t) => t.mentioned.has(path)) ?? turns.find((t) => t.running) ?? turns[0];
  }

  private setKnown(path: string, ref: ContentRef, origin: KnownOrigin): void {
    this.state.known.delete(path);
    this.state.known.set(path, { ref, origin });
    if (this.state.known.size > MAX_KNOWN) {
      // Forget the files seen longest ago (never one under review): the map would otherwise grow with every session.
      for (const p of this.state.known.keys()) {
        if (this.state.known.size <= MAX_KNOWN * 0.9) break;
        if (!this.pending.has(p)) this.state.known.delete(p);
      }
    }
    if (origin === 'session') this.persist();
  }

  private rememberDocument(document: vscode.TextDocument, why: 'open' | 'save'): void {
    if (document.uri.scheme !== 'file') return;
    const path = document.uri.fsPath;
    if (ignored(path)) return;
    const prev = this.state.known.get(path);
    // What we know from our own tracking beats what a document happened to hold when opened.
    if (why === 'open' && prev?.origin === 'session') return;
    void readDisk(path).then((disk) => {
      if (!isText(disk)) return;
      this.setKnown(path, this.blobs.put(disk.bytes), prev?.origin ?? 'document');
      if (why === 'save' && this.pending.has(path)) this.pending.scheduleRefresh(path, 0);
    });
  }

  private forgetDocument(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file') return;
    if (this.state.known.get(document.uri.fsPath)?.origin === 'document') this.state.known.delete(document.uri.fsPath);
  }
}

function strength(hint: Hint): number {
  return hint === 'created' ? 3 : hint === 'deleted' ? 2 : hint === 'changed' ? 1 : 0;
}

/** Churn that is never an edit to review: git's object store and logs, dependencies, our own temporary files. */
function ignored(path: string): boolean {
  const parts = path.split(/[\\/]/);
  if (parts.includes('node_modules')) return true;
  const git = parts.lastIndexOf('.git');
  if (git >= 0) {
    const inside = parts.slice(git + 1);
    // Hooks and config steer what runs: an agent writing them is a change to see.
    return !(inside[0] === 'hooks' || (inside.length === 1 && inside[0] === 'config'));
  }
  return /\.howdah-[0-9a-f]+\.tmp$/.test(path);
}
