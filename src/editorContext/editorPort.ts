/**
 * What the editor-context tools need from the editor, in plain data: the VS Code adapter (`vscodeEditor.ts`)
 * implements it, unit tests fake it. Positions are 0-based here, as VS Code's are; the tools show them 1-based.
 * Paths are absolute file-system paths. Plain: no `vscode`, no Node.
 */

export interface Pos {
  readonly line: number;
  readonly character: number;
}

export interface Span {
  readonly start: Pos;
  readonly end: Pos;
}

export interface FileSlice {
  /** The lines asked for, with their line breaks. */
  readonly content: string;
  /** The text came from an open editor (else from disk). */
  readonly fromEditor: boolean;
  /** The editor's text differs from the disk: it has changes not saved yet. */
  readonly unsaved: boolean;
  readonly totalLines: number;
}

export interface EditorInfo {
  readonly path: string;
  readonly languageId: string;
  readonly active: boolean;
  readonly dirty: boolean;
  /** Visible on screen (empty for an open tab not shown in any editor group). */
  readonly visibleRanges: readonly Span[];
}

export interface SelectionInfo {
  readonly path: string;
  readonly selections: readonly { readonly span: Span; readonly text: string }[];
}

export type Severity = 0 | 1 | 2 | 3;

export interface Problem {
  readonly path: string;
  readonly span: Span;
  /** VS Code's order: 0 error, 1 warning, 2 information, 3 hint. */
  readonly severity: Severity;
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

export interface Place {
  readonly path: string;
  readonly span: Span;
}

export interface SymbolEntry {
  readonly name: string;
  readonly kind: string;
  readonly container?: string;
  readonly place: Place;
}

export interface OutlineItem {
  readonly name: string;
  readonly kind: string;
  readonly detail?: string;
  readonly span: Span;
  readonly children: readonly OutlineItem[];
}

export interface EditorPort {
  /** A slice of the file `real` (the sandbox's resolved path; `view` as the workspace spells it), editor first. */
  readSlice(real: string, view: string, line: number, limit: number): Promise<FileSlice>;
  openEditors(): readonly EditorInfo[];
  /** The active text editor's selections; undefined when no text editor is active. */
  selection(): SelectionInfo | undefined;
  /** The Problems list: of one file, or everything. */
  diagnostics(path?: string): readonly Problem[];
  definition(path: string, at: Pos): Promise<readonly Place[]>;
  references(path: string, at: Pos): Promise<readonly Place[]>;
  /** The hover's contents, one Markdown string per part. */
  hover(path: string, at: Pos): Promise<readonly string[]>;
  workspaceSymbols(query: string): Promise<readonly SymbolEntry[]>;
  documentSymbols(path: string): Promise<readonly OutlineItem[]>;
  /** Line `line` (0-based) of the file as the editor has it; undefined when it cannot be read. */
  lineText(path: string, line: number): Promise<string | undefined>;
}
