import * as vscode from 'vscode';
import { candidate, search, type Candidate } from './fuzzyMatch';
import type { FileMatchView } from '../shared/protocol';
import { SPECIAL_MENTIONS } from './promptBlocks';

const MAX_FILES = 200_000;
const ALWAYS_EXCLUDED = ['**/node_modules/**', '**/.git/**'];

interface IndexedFile extends Candidate {
  readonly uri: string;
}

/**
 * The workspace's files for `@` completion: listed once with `findFiles` (on first use), then kept current by a
 * file system watcher, so each query is a fuzzy match over memory.
 */
export class WorkspaceFileIndex implements vscode.Disposable {
  private readonly files = new Map<string, IndexedFile>();
  private list: IndexedFile[] | undefined;
  private loading: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => void this.addIfFile(uri)),
      watcher.onDidDelete((uri) => this.remove(uri)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()),
    );
  }

  async search(query: string, limit = 50): Promise<FileMatchView[]> {
    await this.load();
    this.list ??= [...this.files.values()];
    const files = (search(query, this.list, limit) as IndexedFile[]).map((f) => ({ uri: f.uri, label: f.label }));
    // `@problems` and `@terminal` first, once what is typed starts them: read when the prompt is sent.
    const special = query === '' ? [] : SPECIAL_MENTIONS.filter((m) => m.label.startsWith(query.toLowerCase())).map((m) => ({ uri: m.uri, label: m.label }));
    return [...special, ...files].slice(0, limit);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private load(): Promise<void> {
    this.loading ??= (async () => {
      const uris = await vscode.workspace.findFiles('**/*', excludeGlob(), MAX_FILES);
      for (const uri of uris) this.add(uri);
    })().catch(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** Created folders are reported too; only files are mentionable. */
  private async addIfFile(uri: vscode.Uri): Promise<void> {
    if (!this.loading) return;
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (stat && stat.type & vscode.FileType.File) this.add(uri);
  }

  private add(uri: vscode.Uri): void {
    if (uri.scheme !== 'file' || isAlwaysExcluded(uri.path) || this.files.has(uri.toString())) return;
    const label = vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
    this.files.set(uri.toString(), { ...candidate(label.replace(/\\/g, '/')), uri: uri.toString() });
    this.list = undefined;
  }

  private remove(uri: vscode.Uri): void {
    const key = uri.toString();
    this.list = undefined;
    if (this.files.delete(key)) return;
    // A deleted folder reports only itself: drop everything under it.
    const prefix = key.endsWith('/') ? key : `${key}/`;
    for (const k of [...this.files.keys()]) if (k.startsWith(prefix)) this.files.delete(k);
  }

  private reset(): void {
    this.files.clear();
    this.list = undefined;
    this.loading = undefined;
  }
}

/** `files.exclude` (what findFiles applies by default) plus the folders nobody mentions. */
function excludeGlob(): string {
  const configured = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {};
  const patterns = Object.entries(configured)
    .filter(([, on]) => on === true)
    .map(([glob]) => glob);
  return `{${[...new Set([...ALWAYS_EXCLUDED, ...patterns])].join(',')}}`;
}

function isAlwaysExcluded(path: string): boolean {
  return path.includes('/node_modules/') || path.includes('/.git/');
}
