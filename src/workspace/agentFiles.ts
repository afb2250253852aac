import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { RpcError } from '../acp/errors';
import type { ReadTextFileParams, WriteTextFileParams } from '../acp/schema/clientMethods';
import { Sandbox } from './sandbox';

const MAX_READ_BYTES = 50 * 1024 * 1024;

/**
 * `fs/read_text_file` and `fs/write_text_file` for one session: reads come from the open document when there is one
 * (unsaved changes included), else from disk; every path goes through the sandbox first.
 */
export class AgentFiles {
  private readonly sandbox: Sandbox;

  constructor(roots: readonly string[]) {
    this.sandbox = new Sandbox(roots);
  }

  async read(params: ReadTextFileParams): Promise<{ content: string }> {
    const real = await this.sandbox.resolve(params.path, 'read');
    const text = openDocumentText(params.path) ?? openDocumentText(real) ?? (await readFromDisk(real, params.path));
    return { content: sliceLines(text, params.line ?? undefined, params.limit ?? undefined) };
  }

  async write(params: WriteTextFileParams): Promise<void> {
    const real = await this.sandbox.resolve(params.path, 'write');
    const uri = vscode.Uri.file(real);
    const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === real);
    if (document) {
      // Through the editor so its undo history and open views stay coherent.
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), params.content);
      if (!(await vscode.workspace.applyEdit(edit))) throw RpcError.internal(`Could not edit ${params.path}`);
      await document.save();
      return;
    }
    await vscode.workspace.fs.writeFile(uri, Buffer.from(params.content, 'utf8'));
  }
}

function openDocumentText(fsPath: string): string | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === fsPath)?.getText();
}

async function readFromDisk(real: string, requested: string): Promise<string> {
  let stat;
  try {
    stat = await fs.stat(real);
  } catch {
    throw RpcError.resourceNotFound(`File not found: ${requested}`, { uri: vscode.Uri.file(requested).toString() });
  }
  if (stat.isDirectory()) throw RpcError.invalidParams(`${requested} is a directory, not a file`);
  if (stat.size > MAX_READ_BYTES) throw RpcError.invalidParams(`${requested} is ${stat.size} bytes, over the 50 MB read limit`);
  const bytes = await fs.readFile(real);
  if (bytes.subarray(0, 8000).includes(0)) throw RpcError.invalidParams(`${requested} looks like a binary file; only text files can be read`);
  return new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
}

/** `line` is 1-based; `limit` caps the number of lines. Line endings are kept as they are. */
export function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split(/(?<=\n)/);
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined ? lines.length : start + limit;
  return lines.slice(start, end).join('');
}
