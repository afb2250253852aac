import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Session } from '../session/session';
import type { ToolCallState } from '../session/state';
import { AgentFiles } from '../workspace/agentFiles';
import { Sandbox } from '../workspace/sandbox';
import { AgentWrites } from './agentWrites';
import { BlobStore, writeAtomic } from './blobStore';
import { ChangeTracker, type TurnFindings } from './changeTracker';
import { Checkpoints } from './checkpoints';
import { BASELINE_SCHEME, DiffViews } from './diffViews';
import { registerEditCommands } from './editCommands';
import { EditsState } from './editsState';
import { newFileFormat, readDisk } from './fileAccess';
import { PendingChanges, displayPath, type PendingChange } from './pendingChanges';
import { PENDING_VIEW_ID, PendingView } from './pendingView';
import { PROPOSAL_SCHEME, Proposals } from './proposals';
import { Questions } from './questions';
import { ReviewActions } from './reviewActions';
import { TurnSnapshots } from './turnSnapshots';

/** What the session manager and the panel use of the edits layer. */
export interface EditReview {
  /**
   * Follows a session: its tool calls and turns (from its state's change events, whoever sends the prompt) feed the
   * review and the checkpoints. Returns its file access for the router. Safe to call again after a restart.
   */
  attach(key: string, session: Session, cwd: string, extraRoots?: readonly string[]): AgentFiles;
  /** Starts tracking a session; returns its file access for `fs/read_text_file` / `fs/write_text_file`. */
  openSession(key: string, cwd: string, extraRoots?: readonly string[]): AgentFiles;
  /** The file access of an open session. */
  files(key: string): AgentFiles | undefined;
  closeSession(key: string): void;
  /** Call before sending a prompt: `turnIndex` = how many user messages the transcript held before this one. */
  turnStarted(key: string, turnIndex: number): void;
  turnEnded(key: string, turnIndex: number): void;
  /** Every `tool-call` change of the session's state: diffs, locations and edit kinds feed the review. */
  onToolCall(key: string, call: ToolCallState): void;
  /** A folder the user let this session's agent reach, on top of the workspace folders. */
  addRoot(key: string, folder: string): void;
  /** The files "Restore files to before this message" would touch. */
  checkpointFiles(key: string, turnIndex: number): string[];
  /** Restores them after a confirmation listing them; false when the user declined or there was nothing to do. */
  restoreCheckpoint(key: string, turnIndex: number): Promise<boolean>;
  readonly pending: PendingChanges;
  /** Saves baselines and checkpoints now (on deactivate). */
  flush(): Promise<void>;
}

/** Builds the edits layer: state from the extension's storage, review model, tracker, editors, commands, list view. */
export interface EditsOptions {
  /** The session "Let the Agent Use Another Folder…" applies to when invoked without one (the panel's active one). */
  activeSession?: () => string | undefined;
}

export function registerEdits(context: vscode.ExtensionContext, options: EditsOptions = {}): { review: EditReview; pending: PendingChanges } {
  const dir = path.join(context.storageUri?.fsPath ?? path.join(context.globalStorageUri.fsPath, 'no-workspace'), 'edits');
  const stateFile = path.join(dir, 'state.json');
  const state = EditsState.fromJSON(readJson(stateFile));
  const blobs = new BlobStore(path.join(dir, 'blobs'));
  const log = vscode.window.createOutputChannel('Howdah: Edits', { log: true });

  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  const save = async () => {
    const referenced = state.referencedBlobs(true);
    await blobs.flush(referenced);
    await writeAtomic(stateFile, JSON.stringify(state.toJSON()));
  };
  const persist = () => {
    saveTimer ??= setTimeout(() => {
      saveTimer = undefined;
      void save().catch((e: unknown) => log.error(`Could not save the review state: ${String(e)}`));
    }, 500);
  };

  const pending = new PendingChanges(state, blobs, persist);
  const questions = new Questions();
  const sessions = new Map<string, AgentFiles>();
  const workspaceSandbox = () =>
    new Sandbox([...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), ...[...sessions.values()].flatMap((f) => f.sandbox.roots)]);

  const followed = { key: '', at: 0 };
  const follow = (fsPath: string, line?: number) => {
    if (!vscode.workspace.getConfiguration('howdah').get<boolean>('followAgent', false)) return;
    const key = `${fsPath}:${line ?? ''}`;
    if (followed.key === key && Date.now() - followed.at < 2000) return;
    Object.assign(followed, { key, at: Date.now() });
    const selection = line === undefined ? undefined : new vscode.Range(line, 0, line, 0);
    void vscode.window.showTextDocument(vscode.Uri.file(fsPath), { preview: true, preserveFocus: true, selection }).then(undefined, () => undefined);
  };

  const recent: string[] = [];
  const note = (line: string) => {
    log.info(line);
    recent.push(line);
    if (recent.length > 100) recent.shift();
  };
  const snapshots = new TurnSnapshots(path.join(dir, 'snapshots'), note);
  // What the tracker finds out about a turn's files goes on the session's transcript (its cards and its footer).
  const attachedSessions = new Map<string, Session>();
  const findings: TurnFindings = {
    noteToolCall: (key, toolCallId, found) => {
      // A diff whose write waits as a proposal is tied to that proposal.
      if (found.kind === 'untied-diff' && proposals.forPath(found.path)) return;
      attachedSessions.get(key)?.state.addToolCallNote(toolCallId, found);
    },
    noteUnrecorded: (key, turnIndex, files) => void attachedSessions.get(key)?.state.noteUnrecorded(turnIndex, files),
  };
  const tracker = new ChangeTracker({ state, blobs, pending, persist, log: note, follow, snapshots, findings });
  const actions = new ReviewActions(pending, blobs, tracker, workspaceSandbox, questions);
  
  let views: DiffViews | undefined;
  const writes: { current?: AgentWrites } = {};
  const proposals = new Proposals({
    beforeFirstChange: async (p) => {
      const disk = await readDisk(p.path);
      await tracker.recordChange(p.session, p.path, 'bytes' in disk ? { bytes: disk.bytes, format: disk.format } : null, false);
    },
    create: (p, text) => writes.current!.apply(workspaceSandbox(), p.path, text, newFileFormat(p.path)),
    save: async (document) => {
      await workspaceSandbox().resolve(document.uri.fsPath, 'write');
      await document.save();
      tracker.noteOwnWrite(document.uri.fsPath, fs.readFileSync(document.uri.fsPath));
    },
    opened: async (p) => views?.openProposal(p),
  });
  writes.current = new AgentWrites(tracker, pending, proposals, questions, (p) => follow(p));
  views = new DiffViews(pending, proposals);
  const checkpoints = new Checkpoints(state, pending, tracker, actions, questions);

  // Held writes are pending changes too, so they survive a reload: kept in the state, proposed again on activation.
  let restoringHeld = true;
  const keepHeld = () => {
    if (restoringHeld) return;
    state.held.clear();
    for (const p of proposals.list()) {
      if (p.mode !== 'held') continue;
      const original = p.original === null ? null : blobs.put(Buffer.from(p.original, 'utf8'));
      state.held.set(p.path, { session: p.session, text: blobs.put(Buffer.from(p.text, 'utf8')), original });
    }
    persist();
  };
  void (async () => {
    for (const [path, h] of [...state.held]) {
      const text = await blobs.get(h.text);
      const original = h.original === null ? null : await blobs.get(h.original);
      if (text === undefined || original === undefined) continue;
      void proposals.propose(path, h.session, 'held', Buffer.from(text).toString('utf8'), original && Buffer.from(original).toString('utf8'), undefined, false);
    }
    restoringHeld = false;
    keepHeld();
  })();

  // Proposals are pending changes too: listed with the reviews, their counts kept current.
  let proposalCounts = new Map<number, PendingChange>();
  const proposalsChanged = new vscode.EventEmitter<void>();
  let recounts = 0;
  const recountProposals = async () => {
    // Counting awaits each comparison; a newer recount (a proposal decided meanwhile) wins, or a finished proposal
    // would be put back in the list by the older one and stay there as a stale "+0 −0" row.
    const generation = ++recounts;
    const counts = new Map<number, PendingChange>();
    for (const p of proposals.list()) {
      const c = await proposals.compare(p);
      if (generation !== recounts) return;
      const added = c.hunks.reduce((n, h) => n + h.curEnd - h.curStart, 0);
      const removed = c.hunks.reduce((n, h) => n + h.baseEnd - h.baseStart, 0);
      counts.set(p.id, { uri: p.uri, path: displayPath(p.path), added, removed, kind: c.exists ? 'modified' : 'created' });
    }
    proposalCounts = counts;
    proposalsChanged.fire();
  };

  context.subscriptions.push(
    log,
    pending,
    tracker,
    snapshots,
    proposals,
    views,
    proposalsChanged,
    vscode.workspace.registerTextDocumentContentProvider(BASELINE_SCHEME, views),
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals),
    vscode.languages.registerCodeLensProvider([{ scheme: 'file' }, { scheme: PROPOSAL_SCHEME }], views),
    pending.setExtras({ list: () => [...proposalCounts.values()], onDidChange: proposalsChanged.event }),
    proposals.onDidChangeProposals(() => {
      void recountProposals();
      keepHeld();
    }),
    ...(contributesView(context, PENDING_VIEW_ID) ? [new PendingView(pending)] : []),
    {
      dispose: () => {
        if (saveTimer) clearTimeout(saveTimer);
        saveTimer = undefined;
        saveSync(state, blobs, stateFile);
      },
    },
  );
  registerEditCommands(context, { pending, proposals, actions, views, checkpoints, questions, log: () => recent, save: () => save().then(() => stateFile) });
  offerDiffCodeLensOnce(context, pending);

  // Reviews from before the reload: their files may have changed since (the user, git); drop what no longer differs.
  void pending.refreshAll().then(() => blobs.collect(state.referencedBlobs()));

  const attached = new WeakSet<Session>();
  const granted = new Map<string, string[]>();
  const review: EditReview = {
    attach: (key, session, cwd, extraRoots = []) => {
      const files = review.openSession(key, cwd, extraRoots);
      attachedSessions.set(key, session);
      if (attached.has(session)) return files;
      attached.add(session);
      // The snapshot of the roots is taken after the user message shows and before the prompt goes out.
      context.subscriptions.push(session.prepareTurnsWith(() => tracker.prepareTurn(key)));
      const state = session.state;
      let turnIndex: number | undefined;
      const subscription = state.onChange((change) => {
        const call = state.toolCallOf(change);
        if (call) {
          // from its announcement on: the file an edit names is read before the agent (maybe at once) writes it
          tracker.onToolCall(key, call);
        } else if (change.type === 'turn') {
          if (state.turn === 'running' && turnIndex === undefined) {
            // The user message is in the transcript by now: this turn's index is the count of those before it.
            turnIndex = state.entries.filter((e) => e.kind === 'message' && e.role === 'user').length - 1;
            tracker.turnStarted(key, turnIndex);
          } else if (state.turn === 'idle' && turnIndex !== undefined) {
            tracker.turnEnded(key, turnIndex);
            turnIndex = undefined;
          }
        }
      });
      context.subscriptions.push(subscription);
      return files;
    },
    openSession: (key, cwd, extraRoots = []) => {
      const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath).filter((f) => f !== cwd);
      const roots = [cwd, ...folders, ...extraRoots, ...(granted.get(key) ?? [])];
      const files = new AgentFiles(roots, (sandbox, params, signal) => writes.current!.write(key, sandbox, params, signal));
      sessions.set(key, files);
      tracker.openSession(key, files.sandbox);
      return files;
    },
    files: (key) => sessions.get(key),
    closeSession: (key) => {
      sessions.delete(key);
      attachedSessions.delete(key);
      tracker.closeSession(key);
    },
    turnStarted: (key, turnIndex) => tracker.turnStarted(key, turnIndex),
    turnEnded: (key, turnIndex) => tracker.turnEnded(key, turnIndex),
    onToolCall: (key, call) => tracker.onToolCall(key, call),
    addRoot: (key, folder) => {
      // Kept per session, so the grant outlives a restart of its agent (new file access, same roots).
      granted.set(key, [...(granted.get(key) ?? []), folder]);
      const files = sessions.get(key);
      if (!files) return;
      files.addRoot(folder);
      tracker.openSession(key, files.sandbox);
    },
    checkpointFiles: (key, turnIndex) => checkpoints.files(key, turnIndex),
    restoreCheckpoint: (key, turnIndex) => checkpoints.restore(key, turnIndex),
    pending,
    flush: save,
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('howdah.allowFolderForAgent', async (key?: unknown) => {
      const target = typeof key === 'string' ? key : options.activeSession?.();
      if (!target || !sessions.has(target)) return void vscode.window.showInformationMessage('Howdah: start a session first.');
      const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: true, openLabel: 'Let the Agent Use' });
      for (const uri of picked ?? []) review.addRoot(target, uri.fsPath);
      return picked?.length ?? 0;
    }),
  );
  return { review, pending };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** On shutdown there is no time for promises: write what is left synchronously. */
function saveSync(state: EditsState, blobs: BlobStore, stateFile: string): void {
  try {
    blobs.flushSync(state.referencedBlobs(true));
    fs.mkdirSync(path.dirname(stateFile), { recursive: true });
    fs.writeFileSync(`${stateFile}.tmp`, JSON.stringify(state.toJSON()));
    fs.renameSync(`${stateFile}.tmp`, stateFile);
  } catch {
    // Nothing more can be done while the window closes; the last debounced save stands.
  }
}

/**
 * VS Code hides CodeLens in diff editors unless `diffEditor.codeLens` is on; per-hunk Accept/Reject lives there. Ask
 * once, the first time there is something to review.
 */
function offerDiffCodeLensOnce(context: vscode.ExtensionContext, pending: PendingChanges): void {
  const KEY = 'howdah.offeredDiffCodeLens';
  if (context.globalState.get<boolean>(KEY)) return;
  const subscription = pending.onDidChange(() => {
    if (pending.count === 0 || vscode.workspace.getConfiguration('diffEditor').get<boolean>('codeLens')) return;
    subscription.dispose();
    void context.globalState.update(KEY, true);
    void vscode.window
      .showInformationMessage('Howdah: show Accept and Reject above each change in diff editors? (turns on the diffEditor.codeLens setting)', 'Turn On', 'Not Now')
      .then((choice) => {
        if (choice === 'Turn On') void vscode.workspace.getConfiguration('diffEditor').update('codeLens', true, vscode.ConfigurationTarget.Global);
      });
  });
  context.subscriptions.push(subscription);
}

/** The list view exists only once package.json declares it (creating an undeclared view shows an error). */
function contributesView(context: vscode.ExtensionContext, id: string): boolean {
  const views = (context.extension.packageJSON as { contributes?: { views?: Record<string, { id?: string }[]> } }).contributes?.views ?? {};
  return Object.values(views).some((list) => list.some((v) => v.id === id));
}
