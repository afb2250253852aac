import { z } from 'zod';

/**
 * The editor-context MCP server's tools: names, descriptions and input schemas, one table read by both ends. The
 * server script gives the shapes to the MCP SDK (which validates and advertises them); the host parses the same
 * arguments again on arrival, as it does everything that crosses a process boundary. Lines and columns are 1-based
 * everywhere, as editors show them and as `read_file`'s `line` is. Plain: zod only.
 */

const path = z.string().min(1).describe('Absolute path of a file inside the workspace folders.');
const line = z.number().int().min(1).describe('Line number, 1-based.');
const character = z.number().int().min(1).describe('Column, 1-based (the character in the line, as the editor shows it).');
const position = { path, line, character };

export const SEVERITIES = ['error', 'warning', 'information', 'hint'] as const;
export type SeverityName = (typeof SEVERITIES)[number];

export const TOOL_INPUTS = {
  read_file: {
    path,
    line: line.optional().describe('First line to return, 1-based (default 1).'),
    limit: z.number().int().min(1).optional().describe('How many lines to return (default 2000).'),
  },
  open_editors: {},
  selection: {},
  diagnostics: {
    path: path.optional().describe('Only this file (absolute path); the whole workspace when left out.'),
    severity: z.enum(SEVERITIES).optional().describe('The least severe problem to list: "warning" lists errors and warnings. Default: all.'),
  },
  definition: position,
  references: position,
  hover: position,
  workspace_symbols: { query: z.string().max(500).describe('Part of a symbol name (fuzzy, as the editor\'s "Go to Symbol in Workspace").') },
  document_symbols: { path },
} as const;

export type ToolName = keyof typeof TOOL_INPUTS;
export const TOOL_NAMES = Object.keys(TOOL_INPUTS) as ToolName[];

export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  read_file:
    'Read a file as the user\'s editor has it, unsaved changes included; a file not open in the editor is read from disk. Prefer this over reading the disk yourself whenever the user may have edited the file without saving (open_editors says which files are dirty). Says where the text came from and whether it is unsaved.',
  open_editors: 'List the files open in the user\'s editor: which one is active, which have unsaved changes (read those with read_file, not from disk), and the line ranges visible on screen.',
  selection: 'The active editor\'s selections and cursor positions, with the selected text: what the user is pointing at when they say "this".',
  diagnostics:
    'The editor\'s Problems list (compiler errors, lint warnings) for one file or the whole workspace, with ranges, severity, source and code, as computed by the language servers on the current text (unsaved changes included): faster and more exact than running the build.',
  definition: 'Go to Definition at a position, through the editor\'s language servers: the definition\'s path, range and line text. Precise where a text search finds many candidates.',
  references: 'Find All References of the symbol at a position, through the editor\'s language servers: each reference\'s path, range and line text.',
  hover: 'The hover at a position (type, signature, documentation), through the editor\'s language servers.',
  workspace_symbols: 'Search the workspace\'s symbols (classes, functions, …) by name through the editor\'s language servers: each one\'s kind, container, path and range.',
  document_symbols: 'The outline of a file (its classes, functions, members, nested) through the editor\'s language servers, with ranges.',
};

/** The parsed arguments of each tool. */
export type ToolArgs = { [K in ToolName]: z.infer<z.ZodObject<(typeof TOOL_INPUTS)[K]>> };

const parsers = Object.fromEntries(TOOL_NAMES.map((name) => [name, z.strictObject(TOOL_INPUTS[name])])) as unknown as { [K in ToolName]: z.ZodType<ToolArgs[K]> };

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOL_INPUTS, name);
}

/** The arguments of `tool`, or the reason they are not acceptable (in one line). */
export function parseToolArgs<K extends ToolName>(tool: K, args: unknown): { ok: true; args: ToolArgs[K] } | { ok: false; error: string } {
  const parsed = parsers[tool].safeParse(args ?? {});
  if (parsed.success) return { ok: true, args: parsed.data };
  return { ok: false, error: `Invalid arguments for ${tool}: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}` };
}
