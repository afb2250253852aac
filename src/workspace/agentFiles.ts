import * as vscode from 'vscode';
import { RpcError } from '../acp/errors';
import type { ReadTextFileParams, WriteTextFileParams } from '../acp/schema/clientMethods';
import { FileTooLargeError, readInside, writeInsideAtomic } from './safeFs';
import { Sandbox } from './sandbox';
import { decodeText, looksBinary, sliceLines } from './textCodec';

export { sliceLines };

const MAX_READ_BYTES = 50 * 1024 * 1024;

export type Writer = (sandbox: Sandbox, params: WriteTextFileParams, signal?: AbortSignal) => Promise<void>;

/**
 * `fs/read_text_file` and `fs/write_text_file` for one session, confined to its roots. Reads come from the open
 * document when there is one (unsaved changes included), else from disk decoded as VS Code would (`files.encoding`,
 * BOM); writes go to the edits layer, which applies and tracks them for review.
 */
export class AgentFiles {
  readonly sandbox: Sandbox;

  constructor(
    roots: readonly string[],
    private readonly writer?: Writer,
  ) {
    this.sandbox = new Sandbox(roots);
  }

  /** A folder the user granted this session on top of its workspace folders. */
  addRoot(folder: string): void {
    this.sandbox.addRoot(folder);
  }

  async read(params: ReadTextFileParams): Promise<{ content: string }> {
    if (!vscode.workspace.getConfiguration('howdah').get<boolean>('fs.read', true)) {
      throw RpcError.invalidParams('File reads are turned off (the howdah.fs.read setting).');
    }
    const real = await this.sandbox.resolve(params.path, 'read');
    const line = params.line ?? undefined;
    const limit = params.limit ?? undefined;
    const document = openDocument(await this.sandbox.viewPath(real)) ?? openDocument(real) ?? openDocument(this.sandbox.checkLexical(params.path));
    if (document) return { content: documentSlice(document, line, limit) };
    let bytes: Buffer;
    try {
      bytes = await readInside(this.sandbox, real, MAX_READ_BYTES);
    } catch (error) {
      if (error instanceof FileTooLargeError) {
        throw RpcError.invalidParams(`${params.path} is ${(error.size / 1024 / 1024).toFixed(1)} MB, over the 50 MB limit for reads.`, { path: params.path, size: error.size });
      }
      if (error instanceof RpcError && error.code === -32002) {
        throw RpcError.resourceNotFound(`File not found: ${params.path}`, { uri: vscode.Uri.file(params.path).toString() });
      }
      throw error;
    }
    const encoding = vscode.workspace.getConfiguration('files', vscode.Uri.file(real)).get<string>('encoding') ?? 'utf8';
    if (looksBinary(bytes, encoding)) throw RpcError.invalidParams(`${params.path} looks like a binary file; only text files can be read.`, { path: params.path });
    return { content: sliceLines(decodeText(bytes, encoding).text, line, limit) };
  }

  async write(params: WriteTextFileParams, signal?: AbortSignal): Promise<void> {
    if (this.writer) return this.writer(this.sandbox, params, signal);
    // Without the edits layer (not wired yet): a plain write, still confined and atomic, with no review.
    const real = await this.sandbox.resolve(params.path, 'write');
    const document = openDocument(real);
    if (document) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), params.content);
      if (!(await vscode.workspace.applyEdit(edit)) || !(await document.save())) throw RpcError.internal(`Could not write ${params.path}`);
      return;
    }
    await writeInsideAtomic(this.sandbox, real, Buffer.from(params.content, 'utf8'));
  }
}

function openDocument(fsPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && !d.isClosed && d.uri.fsPath === fsPath);
}

/** A slice of an open document without copying all of it: a 100-line read of a 10 MB buffer stays cheap. */
function documentSlice(document: vscode.TextDocument, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return document.getText();
  const start = Math.max(0, (line ?? 1) - 1);
  if (start >= document.lineCount) return '';
  const end = limit === undefined ? document.lineCount : Math.min(document.lineCount, start + limit);
  const endPosition = end >= document.lineCount ? document.lineAt(document.lineCount - 1).rangeIncludingLineBreak.end : new vscode.Position(end, 0);
  return document.getText(new vscode.Range(new vscode.Position(start, 0), endPosition));
}
