/**
 * Every compatibility shim for agents that deviate from the schema, in one place (DIGEST §25, agents-in-the-wild.md).
 * Each says who needs it; delete one when no agent in use needs it any more.
 */

/** `current_mode_update` names the mode `modeId` in the docs' example and `currentModeId` in the schema. */
export function currentModeIdOf(update: { currentModeId?: string | null; modeId?: string | null }): string | undefined {
  return update.currentModeId ?? update.modeId ?? undefined;
}

const MODE_UPDATE_TEXT = /^\s*\[MODE_UPDATE\]\s+(\S+)\s*$/;

/**
 * Gemini CLI announces a mode change as an agent message whose whole text is `[MODE_UPDATE] <modeId>`. Returns the
 * mode id when a chunk is such a message, so it becomes a mode change instead of transcript text.
 */
export function modeFromMessageText(text: string): string | undefined {
  return MODE_UPDATE_TEXT.exec(text)?.[1];
}

/**
 * The docs' switch_mode permission example puts a bare content block where a ToolCallContent belongs; wrap it as
 * `{type: "content", content}`.
 */
export function wrapBareTextContent(block: { type: 'text'; text: string }) {
  return { type: 'content' as const, content: { ...block, annotations: undefined, _meta: undefined }, _meta: undefined };
}

export type DiffShape = 'created' | 'whole-file' | 'fragment';

/**
 * A `diff` tool-call content is the whole file for some agents (Codex, Pi, Gemini) and a fragment for others (Claude's
 * first update, OpenCode's final one). Only a whole-file `oldText` may serve as a file's baseline; a fragment's never
 * can. `fileText` is the file's content before the change when known.
 */
export function diffShape(diff: { oldText?: string | null; newText: string }, fileText: string | undefined): DiffShape {
  if (diff.oldText === undefined || diff.oldText === null) return 'created';
  if (fileText !== undefined && diff.oldText === fileText) return 'whole-file';
  if (fileText === undefined) return 'fragment';
  return sameTextIgnoringBomAndEol(diff.oldText, fileText) ? 'whole-file' : 'fragment';
}

/**
 * Text as agents and files disagree on it: a file decoded without its BOM against an agent's text that kept it as
 * U+FEFF (a diff of a file it read as raw UTF-8), and CRLF or CR against LF. Equal here means the same file.
 */
export function comparableText(text: string): string {
  return withoutBom(text).replace(/\r\n?/g, '\n');
}

/** A file's decoded text never holds its BOM (its format keeps it): an agent's leading U+FEFF is not part of it. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function sameTextIgnoringBomAndEol(a: string, b: string): boolean {
  return a === b || comparableText(a) === comparableText(b);
}

/** A turn's token counts, as the turn's end shows them. */
export interface TurnTokens {
  input: number;
  output: number;
  thought?: number;
  cachedRead?: number;
}

/**
 * The turn's token counts: the (unstable) `usage` of the prompt result, else Gemini CLI's, which it sends only as
 * `_meta.quota.token_count.{input_tokens, output_tokens}` of the prompt result (agents-in-the-wild.md). Anything else
 * in `_meta` is not a count Howdah can name, so nothing is shown.
 */
export function turnTokens(result: { usage?: { inputTokens: number; outputTokens: number; thoughtTokens?: number | null; cachedReadTokens?: number | null } | null; _meta?: Record<string, unknown> | null }): TurnTokens | undefined {
  const usage = result.usage;
  if (usage) {
    return {
      input: usage.inputTokens,
      output: usage.outputTokens,
      ...(usage.thoughtTokens != null ? { thought: usage.thoughtTokens } : {}),
      ...(usage.cachedReadTokens != null ? { cachedRead: usage.cachedReadTokens } : {}),
    };
  }
  const quota = result._meta?.quota as { token_count?: { input_tokens?: unknown; output_tokens?: unknown } } | undefined;
  const input = quota?.token_count?.input_tokens;
  const output = quota?.token_count?.output_tokens;
  return isCount(input) && isCount(output) ? { input, output } : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
