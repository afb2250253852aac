import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { RpcError } from '../acp/errors';
import { writeInsideAtomic } from '../workspace/safeFs';
import type { Sandbox } from '../workspace/sandbox';
import { decodeText, encodeText } from '../workspace/textCodec';
import type { BlobStore } from './blobStore';
import type { ChangeTracker } from './changeTracker';
import type { ContentRef } from './editsState';
import { applyOffsetEdits, configuredEncoding, openDocument, readCurrent, replaceDocumentText } from './fileAccess';
import { acceptHunk, findHunk, rejectEdit, type HunkRef } from './hunks';
import type { PendingChanges } from './pendingChanges';
import type { Questions } from './questions';

/**
 * Accept and reject, for a hunk, a file or everything under review, and restoring files to stored contents (shared
 * by Reject and checkpoints). Accept only moves the baseline. Reject edits the file: through its document when an
 * editor has it (an undoable WorkspaceEdit, saved unless the user had unsaved changes there), else by an atomic write
 * of the stored bytes; either way the end state is the baseline byte for byte. Nothing is written without the
 * sandbox's check at the time of writing.
 */
export class ReviewActions {
  constructor(
    private readonly pending: PendingChanges,
    private readonly blobs: BlobStore,
    private readonly tracker: ChangeTracker,
    private readonly sandbox: () => Sandbox,
    private readonly questions: Questions,
  ) {}

  /** Folds one hunk into the baseline. `hunk` is found again by `findHunk`: one that is gone does nothing. */
  async acceptHunk(fsPath: string, hunk: HunkRef): Promise<boolean> {
    const c = await this.pending.compare(fsPath);
    const h = c && findHunk(c.hunks, c.base, c.cur, hunk);
    if (!c || !h) return false;
    if (c.baseline === null || !c.current.exists) {
      // A created or deleted file is one hunk: accepting it is accepting the file.
      this.pending.remove(fsPath);
      return true;
    }
    await this.pending.setBaselineText(fsPath, acceptHunk(c.base, c.cur, h).join(''));
    return true;
  }

  /** Puts the baseline's text of one hunk back into the file, as an undoable edit. */
  async rejectHunk(fsPath: string, hunk: HunkRef): Promise<boolean> {
    let c = await this.pending.compare(fsPath);
    if (!c || !findHunk(c.hunks, c.base, c.cur, hunk)) return false;
    if (c.baseline === null || !c.current.exists) return this.rejectFile(fsPath);
    const document = c.current.document ?? (await vscode.workspace.openTextDocument(vscode.Uri.file(fsPath)));
    // Compare again against the document itself (it may decode differently from our read of the disk).
    if (!c.current.document) c = await this.pending.compare(fsPath);
    const h = c && findHunk(c.hunks, c.base, c.cur, hunk);
    if (!c || !h) return false;
    const wasDirty = document.isDirty;
    if (!(await applyOffsetEdits(document, [rejectEdit(c.base, c.cur, h)]))) return false;
    if (!wasDirty) await this.save(document);
    if (document.getText() === c.baseline) await this.makeExact(fsPath, c.entry.baseline);
    await this.pending.refresh(fsPath);
    return true;
  }

  acceptFile(fsPath: string): void {
    this.pending.remove(fsPath);
  }

  /**
   * Restores the whole file to its baseline. When someone else changed the file after the agent (the user, git, a
   * formatter), that would discard their change too: asks first (`confirm` false skips that, for callers that asked).
   */
  async rejectFile(fsPath: string, confirm = true): Promise<boolean> {
    const entry = this.pending.entry(fsPath);
    if (!entry) return false;
    if (confirm && (await this.changedSinceAgent(fsPath))) {
      const answer = await this.questions.ask(
        vscode.l10n.t('{0} was changed after the agent changed it.', vscode.workspace.asRelativePath(fsPath)),
        vscode.l10n.t('Rejecting the file restores it as it was before the agent, which also discards the later changes. Reject single changes to keep them.'),
        vscode.l10n.t('Reject Anyway'),
      );
      if (answer !== vscode.l10n.t('Reject Anyway')) return false;
    }
    await this.restoreContent(fsPath, entry.baseline);
    await this.pending.refresh(fsPath);
    return true;
  }

  acceptAll(): number {
    const paths = this.pending.paths();
    for (const p of paths) this.pending.remove(p);
    const opaque = this.pending.opaquePaths();
    for (const p of opaque) this.pending.removeOpaque(p);
    return paths.length + opaque.length;
  }

  /**
   * A change with no text diff: puts the exact bytes before back (or deletes a created file). False when its
   * original was not recorded: there is nothing exact to go back to, and the change stays listed.
   */
  async rejectOpaque(fsPath: string): Promise<boolean> {
    const change = this.pending.opaque(fsPath);
    if (!change || change.baseline === undefined) return false;
    await this.restoreContent(fsPath, change.baseline);
    this.pending.removeOpaque(fsPath);
    return true;
  }

  /** Rejects every file (asking once if some were changed by someone else since); returns what each held, for Undo. */
  async rejectAll(): Promise<Map<string, ContentRef>> {
    const undo = new Map<string, ContentRef>();
    const changed: string[] = [];
    for (const p of this.pending.paths()) if (await this.changedSinceAgent(p)) changed.push(vscode.workspace.asRelativePath(p));
    if (changed.length > 0) {
      const answer = await this.questions.ask(
        vscode.l10n.t('{0} of the files were changed after the agent changed them.', changed.length),
        vscode.l10n.t('{0}\n\nRejecting all restores them as they were before the agent, which also discards the later changes.', changed.slice(0, 15).join('\n')),
        vscode.l10n.t('Reject All Anyway'),
      );
      if (answer !== vscode.l10n.t('Reject All Anyway')) return undo;
    }
    for (const p of this.pending.paths()) {
      const entry = this.pending.entry(p);
      if (!entry) continue;
      const before = await this.snapshot(p);
      try {
        await this.restoreContent(p, entry.baseline);
      } catch (error) {
        // One file that cannot be written (now a link out of the workspace) must not stop the others.
        void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: could not restore {0}: {1}', vscode.workspace.asRelativePath(p), String(error)));
        continue;
      }
      if (before !== undefined) undo.set(p, before);
      await this.pending.refresh(p);
    }
    for (const p of this.pending.opaquePaths()) {
      if (this.pending.opaque(p)?.baseline === undefined) continue;
      const before = await this.current(p);
      if (await this.rejectOpaque(p)) undo.set(p, before ?? null);
    }
    return undo;
  }

  /** A file's bytes now, stored, whatever they are (binary included); null when absent. */
  private async current(fsPath: string): Promise<ContentRef | undefined> {
    const bytes = await fs.readFile(fsPath).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : undefined));
    return bytes === undefined ? undefined : bytes === null ? null : this.blobs.put(bytes);
  }

  /** True when the file no longer holds what the agent (or our last decision) left there, nor its baseline. */
  async changedSinceAgent(fsPath: string): Promise<boolean> {
    const entry = this.pending.entry(fsPath);
    if (!entry || entry.expected === undefined) return false;
    const now = await this.snapshot(fsPath);
    return now !== undefined && now !== entry.expected && now !== entry.baseline;
  }

  /** What a file holds now, stored (null: absent; undefined: unreadable). Dirty documents count as they are. */
  async snapshot(fsPath: string): Promise<ContentRef | undefined> {
    const current = await readCurrent(fsPath);
    if (current.unreadable) return undefined;
    if (!current.exists) return null;
    if (current.disk) return this.blobs.put(current.disk.bytes);
    const format = this.pending.entry(fsPath)?.format ?? decodeText(new Uint8Array(), configuredEncoding(fsPath)).format;
    return this.blobs.put(encodeText(current.text, format));
  }

  /**
   * Makes the file hold exactly the stored content, or not exist (to the trash where possible). An open document is
   * edited (undoable) and saved unless it had unsaved changes; a file no editor holds is written atomically.
   */
  async restoreContent(fsPath: string, ref: ContentRef): Promise<void> {
    const uri = vscode.Uri.file(fsPath);
    if (ref === null) {
      if ((await readCurrent(fsPath)).exists) {
        await this.checkWritable(fsPath);
        await vscode.workspace.fs.delete(uri, { useTrash: true }).then(undefined, () => vscode.workspace.fs.delete(uri, { useTrash: false }));
      }
      this.tracker.noteOwnWrite(fsPath, null);
      return;
    }
    const bytes = await this.blobs.get(ref);
    if (!bytes) throw new Error(vscode.l10n.t('The stored content of {0} is missing; it cannot be restored.', fsPath));
    const document = openDocument(fsPath);
    if (document) {
      const wasDirty = document.isDirty;
      await replaceDocumentText(document, decodeText(bytes, configuredEncoding(fsPath)).text);
      if (!wasDirty) {
        await this.save(document);
        await this.makeExact(fsPath, ref);
      }
      return;
    }
    await writeInsideAtomic(this.sandbox(), await this.checkWritable(fsPath), bytes);
    this.tracker.noteOwnWrite(fsPath, bytes);
  }

  /**
   * After VS Code saved a document, the bytes may still differ from the stored ones (a BOM it added or dropped, mixed
   * line endings it normalised): write the exact bytes; the clean document then reloads them.
   */
  private async makeExact(fsPath: string, ref: ContentRef): Promise<void> {
    if (ref === null || openDocument(fsPath)?.isDirty) return;
    const want = await this.blobs.get(ref);
    const have = await fs.readFile(fsPath).catch(() => undefined);
    if (!want || (have && Buffer.compare(Buffer.from(want), have) === 0)) {
      if (have) this.tracker.noteOwnWrite(fsPath, have);
      return;
    }
    await writeInsideAtomic(this.sandbox(), await this.checkWritable(fsPath), want);
    this.tracker.noteOwnWrite(fsPath, want);
  }

  private async save(document: vscode.TextDocument): Promise<void> {
    // VS Code saves through a link: make sure the path is still a plain file inside the workspace right before.
    await this.checkWritable(document.uri.fsPath);
    if (!(await document.save())) throw new Error(vscode.l10n.t('Could not save {0}', document.uri.fsPath));
    const saved = await fs.readFile(document.uri.fsPath).catch(() => undefined);
    if (saved) this.tracker.noteOwnWrite(document.uri.fsPath, saved);
  }

  private async checkWritable(fsPath: string): Promise<string> {
    const real = await this.sandbox().resolve(fsPath, 'write');
    if (real !== fsPath && (await fs.lstat(fsPath).catch(() => undefined))?.isSymbolicLink()) {
      throw RpcError.invalidParams(`Refused path ${JSON.stringify(fsPath)}: it is now a symbolic link.`);
    }
    return real;
  }
}
