import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { decodeText, DEFAULT_FORMAT, looksBinary, type FileFormat } from '../workspace/textCodec';
import { editsBetween } from './hunks';

/**
 * How the edits layer sees a file: the open document when there is one (its text, unsaved changes included), else the
 * bytes on disk decoded as VS Code would. And the two ways it changes one: a WorkspaceEdit on the document (undoable,
 * keeps the editor's state), or bytes on disk when no editor holds the file.
 */

export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** `readDisk`'s word for a folder, socket or pipe. */
export const NOT_A_FILE = vscode.l10n.t('not a regular file');

const caseInsensitiveFs = process.platform === 'win32' || process.platform === 'darwin';

export function samePath(a: string, b: string): boolean {
  return caseInsensitiveFs ? a.toLowerCase() === b.toLowerCase() : a === b;
}

export function openDocument(fsPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && !d.isClosed && samePath(d.uri.fsPath, fsPath));
}

export function configuredEncoding(fsPath: string): string {
  return vscode.workspace.getConfiguration('files', vscode.Uri.file(fsPath)).get<string>('encoding') ?? 'utf8';
}

/** The format a new file gets: the configured encoding, with a BOM when that says `utf8bom`. */
export function newFileFormat(fsPath: string): FileFormat {
  const encoding = configuredEncoding(fsPath);
  if (encoding === 'utf8bom') return { encoding: 'utf8', bom: true };
  return encoding === 'utf8' ? DEFAULT_FORMAT : { encoding, bom: false };
}

export interface DiskText {
  readonly bytes: Buffer;
  readonly text: string;
  readonly format: FileFormat;
}

export type DiskRead = DiskText | { readonly missing: true } | { readonly unreadable: string };

/** The file on disk, decoded; `missing` when it is not there; `unreadable` for binary, huge or special files. */
export async function readDisk(fsPath: string): Promise<DiskRead> {
  let stat;
  try {
    stat = await fs.stat(fsPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    return { unreadable: String((error as Error).message) };
  }
  if (!stat.isFile()) return { unreadable: NOT_A_FILE };
  if (stat.size > MAX_FILE_BYTES) return { unreadable: vscode.l10n.t('over {0} MB', MAX_FILE_BYTES / 1024 / 1024) };
  const bytes = await fs.readFile(fsPath).catch(() => undefined);
  if (!bytes) return { missing: true };
  const configured = configuredEncoding(fsPath);
  if (looksBinary(bytes, configured)) return { unreadable: 'binary' };
  const { text, format } = decodeText(bytes, configured);
  return { bytes, text, format };
}

export function isText(read: DiskRead): read is DiskText {
  return 'bytes' in read;
}

export interface Current {
  readonly exists: boolean;
  readonly text: string;
  /** From disk when the text came from there (or the document is not dirty). */
  readonly disk?: DiskText;
  readonly document?: vscode.TextDocument;
  readonly unreadable?: string;
}

/**
 * What the file holds now for a reviewer: the open document's text (it is what the user sees, and what the diff
 * editor's right side edits), else the disk. A file deleted on disk is gone even if a clean editor still shows it.
 */
export async function readCurrent(fsPath: string): Promise<Current> {
  const document = openDocument(fsPath);
  const disk = await readDisk(fsPath);
  if ('unreadable' in disk) return { exists: true, text: '', unreadable: disk.unreadable };
  if ('missing' in disk) {
    return document?.isDirty ? { exists: true, text: document.getText(), document } : { exists: false, text: '' };
  }
  if (document) return { exists: true, text: document.getText(), document, disk: document.isDirty ? undefined : disk };
  return { exists: true, text: disk.text, disk };
}

/** Applies offset edits (last first, as `editsBetween` returns them) to a document as one undoable WorkspaceEdit. */
export async function applyOffsetEdits(document: vscode.TextDocument, edits: readonly { start: number; end: number; text: string }[]): Promise<boolean> {
  if (edits.length === 0) return true;
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits) edit.replace(document.uri, new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), e.text);
  return vscode.workspace.applyEdit(edit);
}

/** Makes the document hold `text` with the smallest edits (cursor, folding and undo history stay meaningful). */
export function replaceDocumentText(document: vscode.TextDocument, text: string): Promise<boolean> {
  return applyOffsetEdits(document, editsBetween(document.getText(), text));
}
