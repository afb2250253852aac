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
    return { content: (await this.readResolved(real, params.path, params.line ?? undefined, params.limit ?? undefined)).content };
  }

  /**
   * Lines `line`.. (`limit` of them) of the file the sandbox resolved `requested` to: the open document's text when
   * there is one (unsaved changes included; `document` says which), else the disk's decoded as VS Code would. Also
   * serves the editor-context server's `read_file`, so both ways of reading see the same text.
   */
  async readResolved(real: string, requested: string, line?: number, limit?: number): Promise<{ content: string; document?: vscode.TextDocument; totalLines: number }> {
    const document = openDocument(await this.sandbox.viewPath(real)) ?? openDocument(real) ?? openDocument(this.sandbox.checkLexical(requested));
    if (document) return { content: documentSlice(document, line, limit), document, totalLines: documentLines(document) };
    let bytes: Buffer;
    try {
      bytes = await readInside(this.sandbox, real, MAX_READ_BYTES);
    } catch (error) {
      if (error instanceof FileTooLargeError) {
        throw RpcError.invalidParams(`${requested} is ${(error.size / 1024 / 1024).toFixed(1)} MB, over the 50 MB limit for reads.`, { path: requested, size: error.size });
      }
      if (error instanceof RpcError && error.code === -32002) {
        throw RpcError.resourceNotFound(`File not found: ${requested}`, { uri: vscode.Uri.file(requested).toString() });
      }
      throw error;
    }
    const encoding = vscode.workspace.getConfiguration('files', vscode.Uri.file(real)).get<string>('encoding') ?? 'utf8';
    if (looksBinary(bytes, encoding)) throw RpcError.invalidParams(`${requested} looks like a binary file; only text files can be read.`, { path: requested });
    const text = decodeText(bytes, encoding).text;
    return { content: sliceLines(text, line, limit), totalLines: lineCount(text) };
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

/** Lines of text: a line break at the very end does not start another (an editor shows an empty last line there). */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < text.length - 1; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

function documentLines(document: vscode.TextDocument): number {
  const last = document.lineCount - 1;
  return last > 0 && document.lineAt(last).text === '' ? last : last === 0 && document.lineAt(0).text === '' ? 0 : document.lineCount;
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
