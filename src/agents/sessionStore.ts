import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parsePersistedSession, sessionToJson, type PersistedSession } from '../session/persistence';
import type { Disposable } from '../base/disposables';
import type { ManagedSession } from './managedSession';

const SAVE_DELAY_MS = 1500;
/**
 * How long a finished turn's save waits. The panel's patch with the answer's end is posted when the turn ends, but VS
 * Code writes it to the window's socket later, from this same thread (after compressing it on the thread pool);
 * serialising a long transcript in between held it back: a 10 MiB answer's end was on screen 0.2–0.3 s after the
 * agent's last write with the save at once (after the turn's listeners), 0.07 s with it 1 s later (the stream bench).
 * A patch is on its way within milliseconds, so a quarter of a second is plenty, and still at once for a reload.
 */
const TURN_SAVE_DELAY_MS = 250;
const MAX_SAVE_DELAY_MS = 60_000;
const MAX_SAVED_SESSIONS = 50;
/** Not `.json`: only transcripts end so (they are listed and pruned by that). */
const OPEN_FILE = 'open-sessions.state';

/**
 * Keeps every conversation of this workspace in the extension's storage (never in the workspace), so open
 * conversations come back after a window reload and past ones are listed in the history. Saves are debounced while a
 * session streams and flushed on dispose.
 */
export class SessionStore implements vscode.Disposable {
  private readonly dir: vscode.Uri | undefined;
  private readonly dirty = new Map<string, ManagedSession>();
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Map<string, Disposable>();
  private lastSaveMs = 0;
  private flushing: Promise<void> = Promise.resolve();
  private openWriting: Promise<void> = Promise.resolve();
  private sideWriting: Promise<void> = Promise.resolve();
  private pruned = false;

  constructor(storage: vscode.Uri | undefined) {
    this.dir = storage && vscode.Uri.joinPath(storage, 'sessions');
  }

  /**
   * Saves `managed` soon, and again whenever its state changes, until the returned handle is disposed (the session
   * closed, or the window is): what changed until then is still saved by the next flush. A conversation just read
   * back (`saved`) is not written again until it changes: rewriting every restored one made each save after a reload
   * take seconds, and a reload in that time lost the newest conversation's last turn.
   */
  track(managed: ManagedSession, options: { saved?: boolean } = {}): Disposable {
    const key = managed.key;
    this.untrack(key);
    const subscription = managed.session.state.onChange((change) => {
      this.markDirty(managed);
      // A finished turn is saved at once (a reload right after an answer must not lose it to the debounce), but not
      // before the answer's end is on its way to the panel (TURN_SAVE_DELAY_MS).
      if (change.type === 'turn-ended') setTimeout(() => void this.flush(), TURN_SAVE_DELAY_MS);
    });
    this.listeners.set(key, subscription);
    if (!options.saved) this.markDirty(managed);
    return {
      dispose: () => {
        subscription.dispose();
        if (this.listeners.get(key) === subscription) this.listeners.delete(key);
      },
    };
  }

  private untrack(key: string): void {
    this.listeners.get(key)?.dispose();
    this.listeners.delete(key);
    this.dirty.delete(key);
  }

  /** Saved conversations, newest first. */
  async list(): Promise<PersistedSession[]> {
    const loaded = await Promise.all([...(await this.savedKeys())].map((key) => this.load(key)));
    return loaded.filter((s): s is PersistedSession => !!s).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /**
   * The conversations open when the window closed, in their order, and the one that was in front. Kept in a file
   * beside the transcripts, not in workspace state: in a browser (code-server) the last workspace-state update before
   * a reload can be lost, and the window came back with an older conversation in front. Workspace state is read only
   * when there is no file yet (what earlier versions kept).
   */
  async openKeys(memento: vscode.Memento): Promise<{ keys: string[]; active: string | undefined }> {
    if (this.dir) {
      try {
        const saved = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(this.openFile())).toString('utf8')) as unknown;
        const { keys, active } = (saved ?? {}) as { keys?: unknown; active?: unknown };
        if (Array.isArray(keys)) return { keys: keys.filter((k): k is string => typeof k === 'string'), active: typeof active === 'string' ? active : undefined };
      } catch {
        // no file yet, or unreadable: fall back
      }
    }
    return { keys: memento.get<string[]>('howdah.openSessions', []), active: undefined };
  }

  /** Records which conversations are open; writes run one after another, the last one wins. */
  setOpenKeys(keys: string[], active: string | undefined): Promise<void> {
    const dir = this.dir;
    if (!dir) return Promise.resolve();
    const text = JSON.stringify({ keys, active });
    this.openWriting = this.openWriting
      .then(async () => {
        await replaceFile(this.openFile(), text);
      })
      .catch(() => undefined);
    return this.openWriting;
  }

  private openFile(): vscode.Uri {
    return vscode.Uri.joinPath(this.dir!, OPEN_FILE);
  }

  /** The keys of every saved conversation (only file names are read). */
  async savedKeys(): Promise<Set<string>> {
    if (!this.dir) return new Set();
    const names = await vscode.workspace.fs.readDirectory(this.dir).then(undefined, () => [] as [string, vscode.FileType][]);
    return new Set(names.filter(([name]) => name.endsWith('.json')).map(([name]) => name.slice(0, -'.json'.length)));
  }

  /** One saved conversation, or undefined when it is not there or cannot be read. */
  async load(key: string): Promise<PersistedSession | undefined> {
    if (!this.dir) return undefined;
    try {
      return parsePersistedSession(JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(this.file(key))).toString('utf8')));
    } catch {
      return undefined;
    }
  }

  /** A file of this store's own beside the transcripts (`name` does not end in `.json`), or undefined. */
  async readSideFile(name: string): Promise<string | undefined> {
    if (!this.dir) return undefined;
    return vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.dir, name)).then((bytes) => Buffer.from(bytes).toString('utf8'), () => undefined);
  }

  /** Replaces a side file whole; writes run one after another, the last one wins. */
  writeSideFile(name: string, text: string): Promise<void> {
    const dir = this.dir;
    if (!dir) return Promise.resolve();
    this.sideWriting = this.sideWriting.then(() => replaceFile(vscode.Uri.joinPath(dir, name), text)).catch(() => undefined);
    return this.sideWriting;
  }

  async remove(key: string): Promise<void> {
    this.untrack(key);
    if (this.dir) await vscode.workspace.fs.delete(this.file(key)).then(undefined, () => undefined);
  }

  /** Saves what changed now. Flushes run one after another: two saves of one file never race on its temporary name. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushNow()).catch(() => undefined);
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const pending = [...this.dirty.values()];
    this.dirty.clear();
    await Promise.all(pending.map((m) => this.save(m)));
    await this.prune();
  }

  dispose(): void {
    void this.flush();
    for (const l of this.listeners.values()) l.dispose();
    this.listeners.clear();
  }

  /**
   * Saves soon, but a session whose save is slow (a long day) is saved less often: the delay grows with the time the
   * last save took, so persistence stays a small share of the host's work.
   */
  private markDirty(managed: ManagedSession): void {
    this.dirty.set(managed.key, managed);
    const delay = Math.min(MAX_SAVE_DELAY_MS, Math.max(SAVE_DELAY_MS, this.lastSaveMs * 20));
    this.timer ??= setTimeout(() => void this.flush(), delay);
  }

  private async save(managed: ManagedSession): Promise<void> {
    if (!this.dir) return;
    const started = Date.now();
    const json = sessionToJson(managed.session.state, {
      key: managed.key,
      agentId: managed.agentId,
      agentName: managed.agentName,
      sessionId: managed.session.sessionId,
      cwd: managed.cwd,
    });
    await replaceFile(this.file(managed.key), json);
    this.lastSaveMs = Date.now() - started;
  }

  /** Keeps the newest saved conversations, judged by file time (no file is read); once per window is enough. */
  private async prune(): Promise<void> {
    if (this.pruned || !this.dir) return;
    this.pruned = true;
    const names = await vscode.workspace.fs.readDirectory(this.dir).then(undefined, () => [] as [string, vscode.FileType][]);
    const files = await Promise.all(
      names
        .filter(([name]) => name.endsWith('.json'))
        .map(async ([name]) => {
          const uri = vscode.Uri.joinPath(this.dir!, name);
          const stat = await vscode.workspace.fs.stat(uri).then(undefined, () => undefined);
          return { uri, mtime: stat?.mtime ?? 0 };
        }),
    );
    files.sort((a, b) => b.mtime - a.mtime);
    for (const old of files.slice(MAX_SAVED_SESSIONS)) await vscode.workspace.fs.delete(old.uri).then(undefined, () => undefined);
  }

  private file(key: string): vscode.Uri {
    return vscode.Uri.joinPath(this.dir!, `${key}.json`);
  }
}

/**
 * Writes `text` whole to a temporary name beside `target`, then renames it over `target`: a crash or a window closing
 * mid-write leaves the old file or the new one, never half of one or none. Node's rename, not `workspace.fs.rename`
 * with `overwrite`, which deletes the target first: an extension host killed in between (a reload gives it well under
 * a second) lost the list of open conversations, and could lose a transcript.
 */
async function replaceFile(target: vscode.Uri, text: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(target.fsPath), { recursive: true });
  const tmp = `${target.fsPath}.tmp`;
  await fs.promises.writeFile(tmp, text, 'utf8');
  await fs.promises.rename(tmp, target.fsPath);
}
