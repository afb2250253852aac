import type { OutlineItem, Place, Pos, Problem, Span, SymbolEntry } from './editorPort';

/**
 * How the editor-context tools put their answers in words, and the caps that keep an answer small enough for a
 * model's context: every list and every text stops at a cap with a marker that says what was left out and how to get
 * it. Positions are shown 1-based. Plain: no `vscode`, no Node.
 */

/** An answer's most characters: about 25,000 tokens, a fair share of any model's context. */
export const MAX_OUTPUT_CHARS = 100_000;
/** `read_file`'s default number of lines. */
export const DEFAULT_READ_LINES = 2000;
/** The most lines a list shows of each place's line text. */
export const MAX_LINE_TEXT_CHARS = 200;

export const SEVERITY_NAMES = ['error', 'warning', 'information', 'hint'] as const;

export function pos1(p: Pos): string {
  return `${p.line + 1}:${p.character + 1}`;
}

export function span1(s: Span): string {
  return s.start.line === s.end.line && s.start.character === s.end.character ? pos1(s.start) : `${pos1(s.start)}-${pos1(s.end)}`;
}

/** One line of source shown beside a place: trimmed, and cut at `MAX_LINE_TEXT_CHARS`. */
export function lineSnippet(text: string): string {
  const trimmed = text.replace(/\r?\n$/, '').trim();
  return trimmed.length > MAX_LINE_TEXT_CHARS ? `${trimmed.slice(0, MAX_LINE_TEXT_CHARS)}…` : trimmed;
}

/**
 * Lines joined under `cap` characters; past it, the marker says how many of `total` items were left out and `hint`
 * how to narrow the question. `total` may exceed `lines.length` when the caller already stopped building lines.
 */
export function cappedList(header: string, lines: readonly string[], total: number, hint: string, cap = MAX_OUTPUT_CHARS): string {
  const out = [header];
  let size = header.length + 1;
  let shown = 0;
  for (const line of lines) {
    if (size + line.length + 1 > cap) break;
    out.push(line);
    size += line.length + 1;
    shown++;
  }
  if (shown < total) out.push(`[truncated: ${shown} of ${total} shown, ${total - shown} left out; ${hint}]`);
  return out.join('\n');
}

/** A file slice's text under `cap` characters, cut at a line break when there is one; and what it shows. */
export function cappedText(content: string, cap = MAX_OUTPUT_CHARS): { text: string; truncated: boolean; lines: number } {
  if (content.length <= cap) return { text: content, truncated: false, lines: countLines(content) };
  const cut = content.lastIndexOf('\n', cap - 1);
  const text = cut > 0 ? content.slice(0, cut + 1) : content.slice(0, cap);
  return { text, truncated: true, lines: Math.max(1, countLines(text)) };
}

/** Lines in `text`: a last line without a line break counts. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

export function problemLine(p: Problem): string {
  const code = p.code !== undefined ? `(${p.code})` : '';
  const source = p.source || code ? ` ${p.source ?? ''}${code}` : '';
  return `${p.path}:${span1(p.span)} ${SEVERITY_NAMES[p.severity]}${source}: ${p.message.replace(/\s*\n\s*/g, ' ')}`;
}

/** A place with its line text, or a note when its file lies outside the session's folders (its text is not shown). */
export function placeLine(place: Place, text: string | undefined, inside: boolean): string {
  const where = `${place.path}:${span1(place.span)}`;
  if (!inside) return `${where} (outside the workspace folders: text not shown)`;
  return text === undefined ? where : `${where}: ${lineSnippet(text)}`;
}

export function symbolLine(s: SymbolEntry, inside: boolean): string {
  const container = s.container ? ` in ${s.container}` : '';
  return `${s.kind} ${s.name}${container} — ${s.place.path}:${span1(s.place.span)}${inside ? '' : ' (outside the workspace folders)'}`;
}

/** The outline, depth-first, indented two spaces per level. */
export function outlineLines(items: readonly OutlineItem[], depth = 0, out: string[] = []): string[] {
  for (const item of items) {
    out.push(`${'  '.repeat(depth)}${item.kind} ${item.name}${item.detail ? ` ${item.detail}` : ''} ${span1(item.span)}`);
    outlineLines(item.children, depth + 1, out);
  }
  return out;
}

export function outlineSize(items: readonly OutlineItem[]): number {
  return items.reduce((n, i) => n + 1 + outlineSize(i.children), 0);
}
