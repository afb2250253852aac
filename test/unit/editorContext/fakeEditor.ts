import type { EditorInfo, EditorPort, FileSlice, OutlineItem, Place, Problem, SelectionInfo, SymbolEntry } from '../../../src/editorContext/editorPort';
import { countLines } from '../../../src/editorContext/format';
import { sliceLines } from '../../../src/workspace/textCodec';

/** An editor in memory: documents by path (their text and whether they are unsaved), and whatever the test sets. */
export class FakeEditor implements EditorPort {
  readonly documents = new Map<string, { text: string; unsaved: boolean }>();
  editors: EditorInfo[] = [];
  current: SelectionInfo | undefined;
  problems: Problem[] = [];
  places: Place[] = [];
  symbols: SymbolEntry[] = [];
  outline: OutlineItem[] = [];
  hovers: string[] = [];
  /** Every path a call was given, to prove refused paths reached nothing. */
  readonly asked: string[] = [];

  async readSlice(real: string, view: string, line: number, limit: number): Promise<FileSlice> {
    this.asked.push(real);
    const doc = this.documents.get(view) ?? this.documents.get(real);
    if (!doc) throw new Error(`File not found: ${view}`);
    return { content: sliceLines(doc.text, line, limit), fromEditor: true, unsaved: doc.unsaved, totalLines: countLines(doc.text) };
  }
  openEditors(): readonly EditorInfo[] {
    return this.editors;
  }
  selection(): SelectionInfo | undefined {
    return this.current;
  }
  diagnostics(path?: string): readonly Problem[] {
    if (path) this.asked.push(path);
    return path ? this.problems.filter((p) => p.path === path) : this.problems;
  }
  async definition(path: string): Promise<readonly Place[]> {
    this.asked.push(path);
    return this.places;
  }
  async references(path: string): Promise<readonly Place[]> {
    this.asked.push(path);
    return this.places;
  }
  async hover(path: string): Promise<readonly string[]> {
    this.asked.push(path);
    return this.hovers;
  }
  async workspaceSymbols(): Promise<readonly SymbolEntry[]> {
    return this.symbols;
  }
  async documentSymbols(path: string): Promise<readonly OutlineItem[]> {
    this.asked.push(path);
    return this.outline;
  }
  async lineText(path: string, line: number): Promise<string | undefined> {
    const doc = this.documents.get(path);
    return doc?.text.split('\n')[line];
  }
}
