import { RpcError } from '../acp/errors';
import type { Sandbox } from '../workspace/sandbox';
import type { ToolHandler } from './channel';
import type { EditorPort, Place, Pos } from './editorPort';
import { cappedList, cappedText, DEFAULT_READ_LINES, MAX_OUTPUT_CHARS, outlineLines, outlineSize, placeLine, problemLine, span1, symbolLine } from './format';
import { isToolName, parseToolArgs, SEVERITIES, type ToolArgs, type ToolName } from './tools';

/** The most places whose line text is looked up for one answer: more would only be cut by the output cap. */
const MAX_PLACES_WITH_TEXT = 500;

type Answer = { text: string; isError?: boolean };

/**
 * Answers one session's editor-context tool calls: arguments parsed against the tools' schemas, every path asked for
 * resolved through the session's sandbox (the one `fs/read_text_file` uses: a path outside its roots is refused with
 * the same words), places in answers outside the roots listed without their text, editors outside them not listed,
 * every answer capped. Nothing here writes. A failure is an error answer for the agent, never a thrown one.
 * Plain: no `vscode` (the editor is behind `port`).
 */
export function editorToolHandler(sandbox: () => Sandbox, port: EditorPort): ToolHandler {
  return async (tool, rawArgs) => {
    if (!isToolName(tool)) return { text: `Unknown tool ${JSON.stringify(tool)}.`, isError: true };
    const parsed = parseToolArgs(tool, rawArgs);
    if (!parsed.ok) return { text: parsed.error, isError: true };
    try {
      return await answer(tool, parsed.args, sandbox(), port);
    } catch (error) {
      // A refusal from the sandbox says which path and why; anything else (a language server failing) likewise.
      return { text: error instanceof RpcError || error instanceof Error ? error.message : String(error), isError: true };
    }
  };
}

async function answer<K extends ToolName>(tool: K, args: ToolArgs[K], sandbox: Sandbox, port: EditorPort): Promise<Answer> {
  const a = args as ToolArgs[ToolName] & Record<string, unknown>;
  switch (tool) {
    case 'read_file':
      return readFile(a as ToolArgs['read_file'], sandbox, port);
    case 'open_editors':
      return openEditors(sandbox, port);
    case 'selection':
      return selection(sandbox, port);
    case 'diagnostics':
      return diagnostics(a as ToolArgs['diagnostics'], sandbox, port);
    case 'definition':
    case 'references': {
      const { view, at } = await position(a as ToolArgs['definition'], sandbox);
      const places = tool === 'definition' ? await port.definition(view, at) : await port.references(view, at);
      return { text: await placesText(`${tool === 'definition' ? 'Definitions' : 'References'} of ${view}:${span1({ start: at, end: at })}`, places, sandbox, port) };
    }
    case 'hover': {
      const { view, at } = await position(a as ToolArgs['hover'], sandbox);
      const parts = await port.hover(view, at);
      if (parts.length === 0) return { text: `No hover at ${view}:${span1({ start: at, end: at })}.` };
      return { text: cappedText(parts.join('\n\n---\n\n')).text };
    }
    case 'workspace_symbols': {
      const symbols = await port.workspaceSymbols((a as ToolArgs['workspace_symbols']).query);
      const inside = symbols.filter((s) => isInside(sandbox, s.place.path));
      const lines = inside.map((s) => symbolLine(s, true));
      return { text: cappedList(`${inside.length} symbols in the workspace folders${symbols.length > inside.length ? ` (${symbols.length - inside.length} elsewhere not listed)` : ''}:`, lines, lines.length, 'make the query more precise') };
    }
    case 'document_symbols': {
      const view = await viewOf((a as ToolArgs['document_symbols']).path, sandbox);
      const outline = await port.documentSymbols(view);
      const lines = outlineLines(outline);
      return { text: cappedList(`Outline of ${view} (${outlineSize(outline)} symbols):`, lines, lines.length, 'read the file around the part you need') };
    }
  }
  return { text: `Unknown tool ${tool}.`, isError: true };
}

async function readFile(args: ToolArgs['read_file'], sandbox: Sandbox, port: EditorPort): Promise<Answer> {
  const real = await sandbox.resolve(args.path, 'read');
  const view = await sandbox.viewPath(real);
  const first = args.line ?? 1;
  const slice = await port.readSlice(real, view, first, args.limit ?? DEFAULT_READ_LINES);
  const capped = cappedText(slice.content);
  const last = first + capped.lines - 1;
  const where = slice.fromEditor ? (slice.unsaved ? 'from the editor, with unsaved changes (the disk differs)' : 'from the editor (saved)') : 'from disk (not open in the editor)';
  const lines = capped.lines === 0 ? `no lines at ${first} (the file has ${slice.totalLines})` : `lines ${first}-${last} of ${slice.totalLines}`;
  const header = `[${view}: ${lines}, ${where}]`;
  const marker = capped.truncated ? `\n[truncated at ${MAX_OUTPUT_CHARS} characters; continue with line=${last + 1}]` : last < slice.totalLines && capped.lines > 0 ? `\n[more: continue with line=${last + 1}]` : '';
  return { text: `${header}\n${capped.text}${marker}` };
}

function openEditors(sandbox: Sandbox, port: EditorPort): Answer {
  const all = port.openEditors();
  const inside = all.filter((e) => isInside(sandbox, e.path));
  const lines = inside.map((e) => {
    const flags = [e.active ? 'active' : '', e.dirty ? 'unsaved changes' : '', e.languageId].filter(Boolean).join(', ');
    const visible = e.visibleRanges.length ? `; visible ${e.visibleRanges.map(span1).join(', ')}` : '';
    return `${e.path} (${flags})${visible}`;
  });
  const elsewhere = all.length - inside.length;
  const header = `${inside.length} open files${elsewhere ? ` (${elsewhere} outside the workspace folders not listed)` : ''}${inside.some((e) => e.dirty) ? '; read the ones with unsaved changes with read_file' : ''}:`;
  return { text: cappedList(header, lines, lines.length, 'ask for one file with read_file') };
}

function selection(sandbox: Sandbox, port: EditorPort): Answer {
  const current = port.selection();
  if (!current) return { text: 'No text editor is active.' };
  if (!isInside(sandbox, current.path)) return { text: 'The active editor shows a file outside the workspace folders; its selection is not shown.' };
  const parts = current.selections.map((s) => (s.text ? `${span1(s.span)}:\n${s.text}` : `${span1(s.span)} (cursor, nothing selected)`));
  return { text: cappedText(`Selections in ${current.path}:\n${parts.join('\n\n')}`).text };
}

function diagnostics(args: ToolArgs['diagnostics'], sandbox: Sandbox, port: EditorPort): Promise<Answer> | Answer {
  const least = args.severity ? SEVERITIES.indexOf(args.severity) : SEVERITIES.length - 1;
  const list = (path?: string): Answer => {
    const problems = port.diagnostics(path).filter((p) => p.severity <= least && isInside(sandbox, p.path));
    problems.sort((x, y) => x.severity - y.severity);
    const counts = SEVERITIES.map((name, i) => [name, problems.filter((p) => p.severity === i).length] as const).filter(([, n]) => n > 0);
    const header = `${problems.length} problems${path ? ` in ${path}` : ' in the workspace folders'}${counts.length ? ` (${counts.map(([name, n]) => `${n} ${name}`).join(', ')})` : ''}:`;
    // Lines past the cap would be cut anyway: building them all for 100,000 problems would be the slow part.
    const lines: string[] = [];
    let size = 0;
    for (const p of problems) {
      if (size > MAX_OUTPUT_CHARS) break;
      const line = problemLine(p);
      lines.push(line);
      size += line.length + 1;
    }
    return { text: cappedList(header, lines, problems.length, path ? 'ask for a higher severity' : 'ask for one file (path) or a higher severity') };
  };
  if (args.path === undefined) return list();
  return viewOf(args.path, sandbox).then(list);
}

async function placesText(header: string, places: readonly Place[], sandbox: Sandbox, port: EditorPort): Promise<string> {
  if (places.length === 0) return `${header}: none found.`;
  // Each file once: resolved through the sandbox (a link inside the roots that leads out of them is outside).
  const resolved = new Map<string, Promise<string | undefined>>();
  const viewOfPlace = (path: string) => {
    let view = resolved.get(path);
    if (!view) resolved.set(path, (view = sandbox.resolve(path, 'read').then((real) => sandbox.viewPath(real), () => undefined)));
    return view;
  };
  const lines: string[] = [];
  for (const [i, place] of places.entries()) {
    const view = isInside(sandbox, place.path) ? await viewOfPlace(place.path) : undefined;
    const text = view !== undefined && i < MAX_PLACES_WITH_TEXT ? await port.lineText(view, place.span.start.line) : undefined;
    lines.push(placeLine(place, text, view !== undefined));
  }
  return cappedList(`${header} (${places.length}):`, lines, lines.length, 'ask about a more specific position');
}

async function position(args: { path: string; line: number; character: number }, sandbox: Sandbox): Promise<{ view: string; at: Pos }> {
  return { view: await viewOf(args.path, sandbox), at: { line: args.line - 1, character: args.character - 1 } };
}

/** The path asked for, resolved through the sandbox (refused when outside), as the workspace spells it. */
async function viewOf(requested: string, sandbox: Sandbox): Promise<string> {
  return sandbox.viewPath(await sandbox.resolve(requested, 'read'));
}

/** Whether a path in an answer lies inside the session's roots (as written: answers are never resolved further). */
function isInside(sandbox: Sandbox, path: string): boolean {
  try {
    sandbox.checkLexical(path);
    return true;
  } catch {
    return false;
  }
}
