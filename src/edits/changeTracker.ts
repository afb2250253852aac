import * as vscode from 'vscode';
import type { ToolCallState } from '../session/state';
import type { Sandbox } from '../workspace/sandbox';
import { decodeText, looksBinary, type FileFormat } from '../workspace/textCodec';
import { chooseBaseline, sourceRank, type BaselineSource, type Known } from './baselines';
import { BlobStore } from './blobStore';
import type { ContentRef, EditsState } from './editsState';
import { configuredEncoding, isText, newFileFormat, NOT_A_FILE, readDisk } from './fileAccess';
import { gitHeadVersion } from './gitBaseline';
import type { PendingChanges } from './pendingChanges';
import { ignored, snapshotBeforePrompt, Turn, type Hint, type TrackedSession } from './turn';
import { gatherEvidence, readKnown, storeContent } from './baselineEvidence';
import { KnownContents } from './knownContents';
import { PathQueue } from './pathQueue';
import { TurnOutcomes, type TurnFindings } from './turnOutcomes';
import type { TurnBefore, TurnSnapshots } from './turnSnapshots';

/** Watcher events keep arriving for a moment after the agent answers the prompt. */
const TURN_GRACE_MS = 1000;
const EVENT_DELAY_MS = 100;
/** File times may run a little ahead of this process's clock (coarse timestamps, another process's write). */
const MTIME_SLACK_MS = 50;
const EDIT_KINDS = new Set(['edit', 'delete', 'move']);
/** Sources that know a file's content before the turn exactly; a file the snapshot could not record needs one. */
const EXACT_SOURCES = new Set<BaselineSource>(['disk', 'turn', 'session', 'document', 'diff', 'snapshot']);
const NO_SNAPSHOT: TurnBefore = { manifests: new Map(), previous: new Map(), late: false };

export interface TrackerDeps {
  readonly state: EditsState;
  readonly blobs: BlobStore;
  readonly pending: PendingChanges;
  readonly persist: () => void;
  readonly log: (line: string) => void;
  readonly follow: (path: string, line?: number) => void;
  readonly snapshots: TurnSnapshots;
  readonly findings: TurnFindings;
}

export { Turn, type TrackedSession } from './turn';
export type { TurnFindings } from './turnOutcomes';

/**
 * Notices what agents change, however they change it: our own writes report in through `recordChange`; agents that
 * write to disk themselves show up as file-system events during their turn and as `diff` content in their tool
 * calls. The first change of a file in a turn records the file's baseline (for the review) and its checkpoint (for
 * "restore to before this message"). Outside turns, files we follow are kept fresh (the user, git, a formatter), so a
 * later baseline is never a stale one.
 */
export class ChangeTracker implements vscode.Disposable {
  private readonly sessions = new Map<string, TrackedSession>();
  private readonly reports = new Set<ReturnType<typeof setTimeout>>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly watched = new Map<string, vscode.FileSystemWatcher>();
  private readonly state: EditsState;
  private readonly blobs: BlobStore;
  private readonly pending: PendingChanges;
  private readonly persist: () => void;
  private readonly log: (line: string) => void;
  private readonly follow: (path: string, line?: number) => void;
  private readonly snapshots: TurnSnapshots;
  private readonly outcomes: TurnOutcomes;
  private readonly known: KnownContents;
  private readonly paths: PathQueue;

  constructor(deps: TrackerDeps) {
    ({ state: this.state, blobs: this.blobs, pending: this.pending, persist: this.persist, log: this.log, follow: this.follow } = deps);
    this.snapshots = deps.snapshots;
    this.outcomes = new TurnOutcomes(deps);
    this.known = new KnownContents(deps.state, deps.blobs, deps.pending, deps.persist);
    this.paths = new PathQueue((path, hint, turn) => this.observe(path, hint, turn), this.log);
    this.disposables.push(
      this.known,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === 'file' && this.pending.has(e.document.uri.fsPath)) this.pending.scheduleRefresh(e.document.uri.fsPath);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.watchWorkspaceFolders()),
    );
    this.watchWorkspaceFolders();
  }

  openSession(key: string, sandbox: Sandbox): TrackedSession {
    const session = this.sessions.get(key) ?? { key, sandbox };
    session.sandbox = sandbox;
    this.sessions.set(key, session);
    for (const root of sandbox.roots) this.watch(root);
    // The first snapshot of the roots is the slow one: start it in the background (a moment from now, see
    // TurnSnapshots.prepare), not when the user sends.
    this.snapshots.prepare(sandbox.roots);
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

  /**
   * Before the prompt goes out: the roots' snapshot, waited for at most `PROMPT_WAIT_MS` (after that the prompt is
   * sent and the snapshot, when done, counts as late: see `TurnBefore.late`).
   */
  async prepareTurn(key: string): Promise<void> {
    const session = this.sessions.get(key);
    const turn = session?.turn;
    if (!session || !turn || !turn.running || turn.before) return;
    await snapshotBeforePrompt(turn, session, this.snapshots, this.log);
  }

  turnEnded(key: string, index: number): void {
    const session = this.sessions.get(key);
    const turn = session?.turn;
    if (!session || !turn || turn.index !== index) return;
    turn.running = false;
    turn.endedAt = Date.now();
    // At once (what changes after the turn is not the agent's): every change the snapshot shows that the watcher
    // did not report joins the review.
    session.sweep = this.sweep(turn).catch((e: unknown) => this.log(`The sweep after turn ${turn.index} failed: ${String(e)}`));
  }

  /** The user refused the agent's `fs/write_text_file` of this file: if it writes it anyway, the card says so. */
  noteRefusedWrite(key: string, path: string): void {
    this.sessions.get(key)?.turn?.refused.add(path);
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
    const { named, diffs } = turn.noteToolCall(call, inside);
    // The agent says it changed these files: look even if the watcher missed it, and let a whole-file diff improve
    // a baseline taken from a weaker source a moment ago.
    for (const p of diffs) this.paths.later(p, 'reported', 300);
    const editing = EDIT_KINDS.has(call.kind) || call.content.some((c) => c.type === 'diff');
    if (editing && (call.status === 'pending' || call.status === 'in_progress')) {
      for (const p of named) if (!turn.snapshots.has(p) && !this.known.has(p)) turn.snapshots.set(p, readKnown(p));
    }
    if ((editing || call.kind === 'execute') && (call.status === 'completed' || call.status === 'failed')) {
      // Done: look at every file it named, even where no watcher event comes (folders excluded from watching).
      for (const p of named) if (!turn.changed.has(p) && !turn.opaque.has(p)) this.paths.later(p, 'reported', 300);
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
      turn?.reviewed.add(path);
      await this.pending.add({ path, session: key, baseline: ref, format, source: 'disk', turn: turn?.index ?? 0, decided: false }, false);
    }
    this.persist();
  }

  /** We wrote (or restored) a file ourselves: what is there now is known, so its watcher event is not a change. */
  noteOwnWrite(path: string, bytes: Uint8Array | null): void {
    const ref = bytes ? this.blobs.put(bytes) : null;
    this.known.set(path, ref, 'session');
    const entry = this.pending.entry(path);
    if (entry) entry.expected = ref;
  }

  dispose(): void {
    this.paths.dispose();
    for (const r of this.reports) clearTimeout(r);
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
    const turn = this.turnFor(path);
    if (ignored(path, turn !== undefined)) return;
    this.snapshots.markDirty(path);
    // Outside turns only files we already follow matter (to keep what we know of them fresh).
    if (!turn && !this.known.has(path) && !this.pending.has(path)) return;
    this.paths.later(path, hint, EVENT_DELAY_MS);
  }

  /** `forTurn`: the sweep's turn, which may have ended longer ago than late watcher events are waited for. */
  private async observe(path: string, hint: Hint, forTurn?: Turn): Promise<void> {
    const turn = forTurn ?? this.turnFor(path);
    const disk = await readDisk(path);
    this.log(`${hint}: ${path} (${'missing' in disk ? 'missing' : 'unreadable' in disk ? disk.unreadable : 'text'}; turn ${turn?.index ?? 'none'}; known ${this.known.has(path)})`);
    const prev = this.known.get(path);
    if (!turn || turn.changed.has(path) || turn.opaque.has(path)) {
      if ('unreadable' in disk) return;
      const nowRef = isText(disk) ? this.blobs.put(disk.bytes) : null;
      // A version we know already: our own write, or one seen before. (During a turn, not merely what an editor
      // opening the file read from disk: that may already be the agent's write.)
      if (prev?.ref === nowRef && (!turn || prev.origin === 'session')) {
        if (turn) this.log(`  a version already known: ${path}`);
        if (turn && hint === 'reported') await this.reconsider(path, turn);
        return;
      }
      if (!turn) {
        // Not an agent's turn: the user, git or a formatter. The review (if any) follows the new content.
        if (prev) this.known.set(path, nowRef, prev.origin);
        if (this.pending.has(path)) this.pending.scheduleRefresh(path, 0);
        return;
      }
      if (hint === 'reported') await this.reconsider(path, turn);
      if (!this.pending.has(path) && !turn.opaque.has(path)) {
        // Decided since (its review was made in this turn): from what the user kept. Else (a write the user held or
        // refused, never reviewed): from the file before the turn.
        const base = turn.reviewed.has(path) && prev ? prev.ref : await this.beforeTurn(turn, path);
        this.log(`  changed again in turn ${turn.index} (${turn.reviewed.has(path) ? 'after a decision' : 'never reviewed'}): ${path}`);
        await this.reviewAgain(turn, path, base, nowRef);
      }
      return this.agentVersion(path, nowRef);
    }
    // Maybe this turn's first change of the file: what the snapshot says it held before the turn decides.
    const recorded = turn.before ? await this.snapshots.before((await turn.before) ?? NO_SNAPSHOT, path) : ({ kind: 'unknown' } as const);
    if ('unreadable' in disk) {
      // A folder (or socket, pipe) is no change of its own: the files in it are. Only a file it replaced counts.
      if (disk.unreadable === NOT_A_FILE && recorded.kind !== 'bytes') return;
      return this.outcomes.opaqueChanged(turn, path, disk.unreadable, recorded);
    }
    // Binary before the turn (now deleted, or text): no text review can show or settle it.
    if (recorded.kind === 'bytes' && looksBinary(recorded.bytes, configuredEncoding(path))) return this.outcomes.opaqueChanged(turn, path, 'binary', recorded);
    const nowRef = isText(disk) ? this.blobs.put(disk.bytes) : null;
    if ((recorded.kind === 'bytes' && nowRef === BlobStore.hash(recorded.bytes)) || (recorded.kind === 'absent' && nowRef === null)) {
      this.log(`  as before turn ${turn.index}: ${path}`);
      return;
    }
    if (recorded.kind === 'unknown' && prev && prev.ref === nowRef) {
      this.log(`  not in the snapshot and as last seen: ${path}`);
      if (hint === 'reported') await this.reconsider(path, turn);
      return;
    }
    const current: Known = isText(disk) ? { text: disk.text, bytes: disk.bytes } : null;
    const currentFormat = isText(disk) ? disk.format : undefined;
    const evidence = await gatherEvidence(this.blobs, path, turn, prev, current, hint);
    if (recorded.kind === 'bytes') evidence.turn = { text: decodeText(recorded.bytes, configuredEncoding(path)).text, bytes: recorded.bytes };
    if (recorded.kind === 'absent') evidence.turn = null;
    let choice = chooseBaseline(evidence);
    this.log(`  snapshot says ${recorded.kind}; first choice ${choice?.source ?? 'none'}; under review already: ${this.pending.has(path)}`);
    if (!choice || choice.source === 'created') {
      const git = await gitHeadVersion(path);
      if (git) evidence.git = { text: decodeText(git, configuredEncoding(path)).text, bytes: git };
      choice = chooseBaseline(evidence);
    }
    // A file the snapshot could not record is restored only from a source that knew it exactly (git's HEAD is not
    // the working tree; "it appeared" is a guess): else it is listed as changed, original not recorded.
    if (!choice && recorded.kind === 'unknown' && hint === 'reported') {
      // Only named by a tool call, with no snapshot to compare with: no sign that it changed at all.
      this.log(`Named by a tool call, no earlier version known (not open, not in git): ${path}`);
    } else if (!choice || (recorded.kind === 'unrecorded' && !EXACT_SOURCES.has(choice.source))) {
      const why = recorded.kind === 'unrecorded' ? recorded.why : vscode.l10n.t('original not recorded (not in the snapshot, not open, not in git)');
      this.outcomes.addOpaque(turn, path, nowRef === null ? 'deleted' : 'modified', undefined, why);
    } else {
      const { ref, format } = storeContent(this.blobs, choice.content, currentFormat, path);
      turn.changed.set(path, ref);
      turn.evidence.set(path, evidence);
      this.state.recordCheckpoint(turn.session.key, turn.index, path, ref);
      if (!this.pending.has(path)) {
        turn.reviewed.add(path);
        await this.pending.add({ path, session: turn.session.key, baseline: ref, format, source: choice.source, turn: turn.index, decided: false });
      }
    }
    this.outcomes.noteIfRefused(turn, path);
    this.agentVersion(path, nowRef);
  }

  /** The file before the turn: the snapshot's exact bytes when it has them, else the turn's first record. */
  private async beforeTurn(turn: Turn, path: string): Promise<ContentRef> {
    const before = turn.before && (await turn.before);
    const recorded = before ? await this.snapshots.before(before, path) : undefined;
    if (recorded?.kind === 'bytes') return this.blobs.put(recorded.bytes);
    if (recorded?.kind === 'absent') return null;
    return turn.changed.get(path)!;
  }

  /**
   * A file this turn already changed that is not under review (its change was decided, or it was a proposal the user
   * refused) changed again: a review from `base`, so the agent's new change is seen too.
   */
  private async reviewAgain(turn: Turn, path: string, base: ContentRef, nowRef: ContentRef): Promise<void> {
    if (base === nowRef) return;
    const bytes = base === null ? null : await this.blobs.get(base);
    if (bytes === undefined) return;
    const format = bytes === null ? newFileFormat(path) : decodeText(bytes, configuredEncoding(path)).format;
    turn.reviewed.add(path);
    await this.pending.add({ path, session: turn.session.key, baseline: base, format, source: 'disk', turn: turn.index, decided: false });
    this.outcomes.noteIfRefused(turn, path);
  }

  /** What the agent left in a file: a later difference from it is someone else's change. */
  private agentVersion(path: string, nowRef: ContentRef): void {
    this.known.set(path, nowRef, 'session');
    const entry = this.pending.entry(path);
    if (entry) {
      entry.expected = nowRef;
      this.pending.scheduleRefresh(path, 0);
    }
  }

  /**
   * After the turn: every file the snapshots show changed that the watcher missed (excluded from watching, events
   * dropped, a command that ran too fast) becomes a change to review; then the turn's findings go to its transcript.
   */
  private async sweep(turn: Turn): Promise<void> {
    const before = await turn.before;
    // The turn's findings, once the watcher's late events and the reports of its tool calls are in; only then may
    // the snapshot's contents go (a late event still reads them).
    const report = setTimeout(() => {
      this.reports.delete(report);
      void this.paths.settled()
        .then(() => this.outcomes.report(turn))
        .finally(() => this.snapshots.release(before));
    }, TURN_GRACE_MS);
    this.reports.add(report);
    await this.paths.settled();
    if (!before || this.sessions.get(turn.session.key) !== turn.session) return;
    for (const { path, mtimeMs } of await this.snapshots.changesSince(before)) {
      if (turn.changed.has(path) || turn.opaque.has(path) || ignored(path, true)) continue;
      // Written after the turn ended (the user, the next test, a build): someone else's change.
      if (mtimeMs !== undefined && mtimeMs > turn.endedAt + MTIME_SLACK_MS) continue;
      await this.paths.now(path, 'swept', turn);
    }
  }

  /** A diff reported after the baseline was taken may be a better source (only within the turn, before decisions). */
  private async reconsider(path: string, turn: Turn): Promise<void> {
    const entry = this.pending.entry(path);
    const evidence = turn.evidence.get(path);
    if (!entry || !evidence || entry.decided || entry.turn !== turn.index || entry.session !== turn.session.key) return;
    const choice = chooseBaseline({ ...evidence, diffs: turn.diffsFor(path) });
    if (!choice || sourceRank(choice.source) >= sourceRank(entry.source)) return;
    const { ref } = storeContent(this.blobs, choice.content, entry.format, path);
    this.state.replaceCheckpoint(turn.session.key, turn.index, path, ref);
    turn.changed.set(path, ref);
    this.pending.replaceBaseline(path, ref, choice.source as BaselineSource);
    this.log(`Baseline of ${path} now from ${choice.source}`);
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
}
