import * as vscode from 'vscode';
import type { BlobStore } from './blobStore';
import type { ContentRef, EditsState, KnownContent, KnownOrigin } from './editsState';
import { isText, readDisk } from './fileAccess';
import type { PendingChanges } from './pendingChanges';
import { ignored } from './turn';

const MAX_KNOWN = 10_000;

/**
 * The content last seen of each file we follow (the state's `known`): what our own tracking saw (`session`) and what
 * open documents held when opened or saved (`document`), a baseline source for files the snapshot could not record.
 */
export class KnownContents implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly state: EditsState,
    private readonly blobs: BlobStore,
    private readonly pending: PendingChanges,
    private readonly persist: () => void,
  ) {
    this.disposables = [
      vscode.workspace.onDidOpenTextDocument((d) => this.rememberDocument(d, 'open')),
      vscode.workspace.onDidSaveTextDocument((d) => this.rememberDocument(d, 'save')),
      vscode.workspace.onDidCloseTextDocument((d) => this.forgetDocument(d)),
    ];
    for (const d of vscode.workspace.textDocuments) this.rememberDocument(d, 'open');
  }

  get(path: string): KnownContent | undefined {
    return this.state.known.get(path);
  }

  has(path: string): boolean {
    return this.state.known.has(path);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  set(path: string, ref: ContentRef, origin: KnownOrigin): void {
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
    if (ignored(path, false)) return;
    const prev = this.state.known.get(path);
    // What we know from our own tracking beats what a document happened to hold when opened.
    if (why === 'open' && prev?.origin === 'session') return;
    void readDisk(path).then((disk) => {
      if (!isText(disk)) return;
      this.set(path, this.blobs.put(disk.bytes), prev?.origin ?? 'document');
      if (why === 'save' && this.pending.has(path)) this.pending.scheduleRefresh(path, 0);
    });
  }

  private forgetDocument(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file') return;
    if (this.state.known.get(document.uri.fsPath)?.origin === 'document') this.state.known.delete(document.uri.fsPath);
  }
}
