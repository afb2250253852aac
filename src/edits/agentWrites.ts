import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { ErrorCode, RpcError } from '../acp/errors';
import type { WriteTextFileParams } from '../acp/schema/clientMethods';
import { readInsideIfExists, writeInsideAtomic } from '../workspace/safeFs';
import type { Sandbox } from '../workspace/sandbox';
import { sensitiveReason } from '../workspace/sensitivePaths';
import { adaptEol, decodeText, encodeText, UnsupportedEncodingError, type FileFormat } from '../workspace/textCodec';
import type { ChangeTracker } from './changeTracker';
import { configuredEncoding, MAX_FILE_BYTES, newFileFormat, openDocument, replaceDocumentText } from './fileAccess';
import type { PendingChanges } from './pendingChanges';
import type { Proposals } from './proposals';
import type { Questions } from './questions';

export type WriteMode = 'apply' | 'ask' | 'off';

/**
 * `fs/write_text_file`. With `apply` the content is written at once — through the document when an editor has the file
 * (a WorkspaceEdit and a save, so its undo history stays), else atomically on disk — and the file joins the pending
 * changes with its exact previous content as baseline. If the user has unsaved changes in that document, the agent's
 * content is held as a proposal instead of being saved over them. With `ask` the request waits for the user's
 * decision in the diff editor. Files that steer execution or the agent always ask first, whatever the mode.
 */
export class AgentWrites {
  private readonly locks = new Map<string, Promise<void>>();

  constructor(
    private readonly tracker: ChangeTracker,
    private readonly pending: PendingChanges,
    private readonly proposals: Proposals,
    private readonly questions: Questions,
    private readonly follow: (path: string) => void,
    private readonly mode: () => WriteMode = () => vscode.workspace.getConfiguration('howdah').get<WriteMode>('fs.write', 'apply'),
  ) {}

  async write(key: string, sandbox: Sandbox, params: WriteTextFileParams, signal?: AbortSignal): Promise<void> {
    const mode = this.mode();
    if (mode === 'off') throw RpcError.invalidParams('File writes are turned off (the howdah.fs.write setting).');
    const real = await sandbox.resolve(params.path, 'write');
    // Documents, watchers and the review know the file by its path under the workspace folder as VS Code spells it.
    const view = await sandbox.viewPath(real);
    // One write per file at a time: two quick writes must not both read the same "before".
    const previous = this.locks.get(view) ?? Promise.resolve();
    const run = previous.then(() => this.writeLocked(key, sandbox, params, real, view, mode, signal));
    const settled = run.catch(() => undefined);
    this.locks.set(view, settled);
    void settled.then(() => {
      if (this.locks.get(view) === settled) this.locks.delete(view);
    });
    return run;
  }

  private async writeLocked(key: string, sandbox: Sandbox, params: WriteTextFileParams, real: string, view: string, mode: WriteMode, signal?: AbortSignal): Promise<void> {
    const why = sensitiveReason(params.path, real, view);
    if (why) {
      const allow = await this.questions.ask(
        vscode.l10n.t('The agent wants to write {0}.', vscode.workspace.asRelativePath(view)),
        vscode.l10n.t('This file is sensitive: {0}. A change here can run code or change what the agent does. Allow this write?', why),
        vscode.l10n.t('Allow'),
        vscode.l10n.t('Deny'),
      );
      if (allow !== vscode.l10n.t('Allow')) throw this.refused(key, view, params.path, 'denied the write to this sensitive file');
    }
    const beforeBytes = await readInsideIfExists(sandbox, real, MAX_FILE_BYTES);
    const before = beforeBytes ? decodeText(beforeBytes, configuredEncoding(view)) : undefined;
    const text = adaptEol(params.content, before?.text);
    const document = openDocument(view) ?? openDocument(real);

    if (mode === 'ask' || document?.isDirty) {
      const original = document ? document.getText() : (before?.text ?? null);
      const outcome = this.proposals.propose(view, key, mode === 'ask' ? 'ask' : 'held', text, original, mode === 'ask' ? signal : undefined);
      // Held: the agent carries on as if written; the user decides later, in the diff editor.
      if (mode !== 'ask') return;
      const result = await outcome;
      if (result === 'rejected') throw this.refused(key, view, params.path, 'rejected the change');
      if (result === 'cancelled') throw RpcError.cancelled('The write was cancelled before the user decided.');
      if (result === 'partial') throw this.refused(key, view, params.path, 'accepted only part of the change; read the file again to see what it holds now');
      return;
    }

    if (before && before.text === text) {
      // The file already holds this text: there is nothing to write, and the disk is no "before". An agent that
      // writes the disk itself and sends fs/write_text_file without waiting (OpenCode) may have got there first; the
      // change tracker sees its write and takes the baseline from what it knew before.
      this.follow(view);
      return;
    }

    const release = this.pending.hold(view);
    try {
      await this.tracker.recordChange(key, view, beforeBytes && before ? { bytes: beforeBytes, format: before.format } : null);
      await this.apply(sandbox, view, text, before?.format ?? newFileFormat(view), document);
    } finally {
      release();
    }
    this.follow(view);
  }

  /**
   * Writes the text to the file VS Code knows as `view`: through its open document (and saves it), or atomically on
   * disk in the file's format. The sandbox is asked again right before, at the time of use.
   */
  async apply(sandbox: Sandbox, view: string, text: string, format: FileFormat, document = openDocument(view)): Promise<void> {
    if (!document) {
      let bytes: Uint8Array | undefined;
      try {
        bytes = encodeText(text, format);
      } catch (error) {
        if (!(error instanceof UnsupportedEncodingError)) throw error;
        // An encoding we cannot write (Shift JIS, GBK, …): VS Code can, through a document.
        document = await vscode.workspace.openTextDocument(vscode.Uri.file(view));
      }
      if (bytes) {
        await writeInsideAtomic(sandbox, await sandbox.resolve(view, 'write'), bytes);
        this.tracker.noteOwnWrite(view, bytes);
        return;
      }
    }
    if (!(await replaceDocumentText(document!, text))) throw RpcError.internal(`Could not edit ${view}`);
    // The editor saves through links: check the path again right before.
    await sandbox.resolve(view, 'write');
    if (!(await document!.save())) throw RpcError.internal(`Could not save ${view}`);
    const saved = await fs.readFile(view).catch(() => undefined);
    if (saved) this.tracker.noteOwnWrite(view, saved);
  }

  /** A write the user refused: the tracker watches for the agent writing the file anyway. */
  private refused(key: string, view: string, asked: string, what: string): RpcError {
    this.tracker.noteRefusedWrite(key, view);
    return new RpcError(ErrorCode.internalError, `The user ${what}: ${asked}.`, { path: asked, reason: 'user' });
  }
}
