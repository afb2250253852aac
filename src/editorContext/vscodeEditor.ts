import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import type { AgentFiles } from '../workspace/agentFiles';
import type { EditorInfo, EditorPort, FileSlice, OutlineItem, Place, Pos, Problem, SelectionInfo, Severity, Span, SymbolEntry } from './editorPort';

/** A file read for line texts larger than this is skipped (its places are listed without their text). */
const MAX_LINE_SOURCE_BYTES = 20 * 1024 * 1024;
const LINE_CACHE_MS = 2000;

/**
 * The editor-context tools' view of VS Code: open editors and tabs, selections, the Problems list, and the language
 * features through the `vscode.execute…Provider` commands, turned into plain data. `files` is the session's file
 * access (the edits layer's), so `read_file` reads exactly as `fs/read_text_file` does. Reads only.
 */
export class VscodeEditor implements EditorPort {
  /**
   * Line texts of files not open in an editor, kept for a moment: one answer's hundred references in the same few
   * files read each file once, and a later answer reads them again (they may have changed).
   */
  private readonly lines = new Map<string, { at: number; lines: Promise<string[] | undefined> }>();

  constructor(private readonly files: () => AgentFiles) {}

  async readSlice(real: string, view: string, line: number, limit: number): Promise<FileSlice> {
    const read = await this.files().readResolved(real, view, line, limit);
    return { content: read.content, fromEditor: !!read.document, unsaved: read.document?.isDirty ?? false, totalLines: read.totalLines };
  }

  openEditors(): readonly EditorInfo[] {
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const seen = new Map<string, EditorInfo>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
        if (!uri || uri.scheme !== 'file' || seen.has(uri.toString())) continue;
        const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        const visible = vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === uri.toString()).flatMap((e) => e.visibleRanges.map(span));
        seen.set(uri.toString(), { path: uri.fsPath, languageId: document?.languageId ?? '', active: uri.toString() === active, dirty: document?.isDirty ?? tab.isDirty, visibleRanges: visible });
      }
    }
    return [...seen.values()];
  }

  selection(): SelectionInfo | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme !== 'file') return undefined;
    return { path: editor.document.uri.fsPath, selections: editor.selections.map((s) => ({ span: span(s), text: editor.document.getText(s) })) };
  }

  diagnostics(path?: string): readonly Problem[] {
    const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = path ? [[vscode.Uri.file(path), vscode.languages.getDiagnostics(vscode.Uri.file(path))]] : vscode.languages.getDiagnostics();
    return entries.flatMap(([uri, list]) =>
      uri.scheme !== 'file'
        ? []
        : list.map((d) => ({ path: uri.fsPath, span: span(d.range), severity: d.severity as Severity, message: d.message, source: d.source, code: codeOf(d.code) })),
    );
  }

  async definition(path: string, at: Pos): Promise<readonly Place[]> {
    const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>('vscode.executeDefinitionProvider', vscode.Uri.file(path), position(at));
    return (found ?? []).map(place);
  }

  async references(path: string, at: Pos): Promise<readonly Place[]> {
    const found = await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', vscode.Uri.file(path), position(at));
    return (found ?? []).map(place);
  }

  async hover(path: string, at: Pos): Promise<readonly string[]> {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', vscode.Uri.file(path), position(at));
    return (hovers ?? []).flatMap((h) => h.contents.map(markdownOf)).filter((t) => t.trim().length > 0);
  }

  async workspaceSymbols(query: string): Promise<readonly SymbolEntry[]> {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query);
    return (found ?? []).map((s) => ({ name: s.name, kind: vscode.SymbolKind[s.kind] ?? 'Symbol', container: s.containerName || undefined, place: place(s.location) }));
  }

  async documentSymbols(path: string): Promise<readonly OutlineItem[]> {
    const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', vscode.Uri.file(path));
    const outline = (s: vscode.DocumentSymbol | vscode.SymbolInformation): OutlineItem =>
      'children' in s
        ? { name: s.name, kind: vscode.SymbolKind[s.kind] ?? 'Symbol', detail: s.detail || undefined, span: span(s.range), children: s.children.map(outline) }
        : { name: s.name, kind: vscode.SymbolKind[s.kind] ?? 'Symbol', detail: s.containerName || undefined, span: span(s.location.range), children: [] };
    return (found ?? []).map(outline);
  }

  async lineText(path: string, line: number): Promise<string | undefined> {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
    if (document) return line < document.lineCount ? document.lineAt(line).text : undefined;
    let cached = this.lines.get(path);
    if (!cached || Date.now() - cached.at > LINE_CACHE_MS) {
      if (this.lines.size > 100) this.lines.clear();
      // A file not open is not opened for this (that would start language servers on it): its disk text serves.
      const lines = fs
        .stat(path)
        .then((st) => (st.isFile() && st.size <= MAX_LINE_SOURCE_BYTES ? fs.readFile(path, 'utf8').then((t) => t.split('\n')) : undefined))
        .catch(() => undefined);
      this.lines.set(path, (cached = { at: Date.now(), lines }));
    }
    return (await cached.lines)?.[line]?.replace(/\r$/, '');
  }
}

function position(at: Pos): vscode.Position {
  return new vscode.Position(at.line, at.character);
}

function span(range: vscode.Range): Span {
  return { start: { line: range.start.line, character: range.start.character }, end: { line: range.end.line, character: range.end.character } };
}

function place(location: vscode.Location | vscode.LocationLink): Place {
  const uri = 'targetUri' in location ? location.targetUri : location.uri;
  const range = 'targetUri' in location ? (location.targetSelectionRange ?? location.targetRange) : location.range;
  return { path: uri.scheme === 'file' ? uri.fsPath : uri.toString(), span: span(range) };
}

function codeOf(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

function markdownOf(content: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof content === 'string') return content;
  if (content instanceof vscode.MarkdownString) return content.value;
  return '```' + content.language + '\n' + content.value + '\n```';
}
