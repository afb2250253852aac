import type { Entry, ToolCallState } from './state';

/**
 * A conversation written out for another agent (a hand-over, or a session continued without the turns it must not
 * see): user and agent messages in full, each tool call as one line (title, status, files), errors and stop reasons
 * left out. Within `maxChars` the newest part is kept; what was left out is said at the top. Pure.
 */

/**
 * About 50,000 tokens: a quarter of the 200,000-token window Claude Code and Codex run with. Their own context for a
 * one-line prompt (system prompt, tools, reminders) measured in the agents tier: Claude Code 0.23.1 about 96,000
 * characters (~24k tokens), Codex 0.16.0 about 31,000 (~8k). Together at most 37% of the window: room for the work.
 */
export const MAX_CONTEXT_CHARS = 200_000;

export interface ContextSource {
  readonly entries: readonly Entry[];
  readonly toolCalls: ReadonlyMap<string, ToolCallState>;
}

export interface ConversationContext {
  readonly text: string;
  /** Messages and tool calls written out. */
  readonly included: number;
  /** The oldest ones left out to stay within the cap. */
  readonly omitted: number;
}

/**
 * The conversation from its start up to (not including) entry `end`, written for `agentName`'s successor.
 * `fromAgent` names who the agent messages came from.
 */
export function conversationContext(source: ContextSource, options: { fromAgent: string; end?: number; maxChars?: number }): ConversationContext {
  const maxChars = options.maxChars ?? MAX_CONTEXT_CHARS;
  const end = Math.min(options.end ?? source.entries.length, source.entries.length);
  const parts: string[] = [];
  // A turn the agent refused is not part of its context (DIGEST §8, `refusal`): its successor does not get it either.
  let refusedTurn = false;
  let refusedTurns = 0;
  for (let i = 0; i < end; i++) {
    const entry = source.entries[i];
    if (entry.kind === 'message' && entry.role === 'user') {
      refusedTurn = entry.refused === true;
      if (refusedTurn) refusedTurns++;
    }
    if (refusedTurn) continue;
    const part = describe(entry, source.toolCalls, options.fromAgent);
    if (part !== undefined) parts.push(part);
  }
  // Newest first until the cap: the recent turns matter most to whoever continues.
  const kept: string[] = [];
  let size = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const cost = parts[i].length + 2;
    if (size + cost > maxChars && kept.length > 0) break;
    kept.unshift(parts[i].length > maxChars ? `${parts[i].slice(0, maxChars)}\n[… cut at ${maxChars.toLocaleString('en-US')} characters]` : parts[i]);
    size += cost;
  }
  const omitted = parts.length - kept.length;
  const header = [
    `This conversation started with ${options.fromAgent} and continues here with you. Below is what was said and done so far, oldest first: user and agent messages in full, tool calls one line each. The files in the workspace are as those turns left them.`,
    ...(omitted > 0 ? [`The ${omitted} oldest message${omitted === 1 ? '' : 's'} and tool call${omitted === 1 ? '' : 's'} are left out, to stay within ${maxChars.toLocaleString('en-US')} characters.`] : []),
    ...(refusedTurns > 0 ? [`${refusedTurns} turn${refusedTurns === 1 ? '' : 's'} the agent refused ${refusedTurns === 1 ? 'is' : 'are'} left out: ${refusedTurns === 1 ? 'it was' : 'they were'} not part of its context.`] : []),
  ].join('\n');
  return { text: `${header}\n\n${kept.join('\n\n')}`, included: kept.length, omitted };
}

function describe(entry: Entry, toolCalls: ReadonlyMap<string, ToolCallState>, fromAgent: string): string | undefined {
  switch (entry.kind) {
    case 'message': {
      if (entry.role === 'thought') return undefined;
      const who = entry.role === 'user' ? 'User' : fromAgent;
      const extra = entry.blocks.map(blockLine).filter((l) => l !== '');
      const body = [entry.text.trim(), ...extra].filter((l) => l !== '').join('\n');
      return body === '' ? undefined : `## ${who}\n${body}`;
    }
    case 'tool': {
      const call = toolCalls.get(entry.toolCallId);
      if (!call) return undefined;
      const files = call.locations.map((l) => (l.line != null ? `${l.path}:${l.line}` : l.path));
      return `- Tool call: ${oneLine(call.title)} (${call.status}${files.length ? `; ${files.join(', ')}` : ''})`;
    }
    default:
      return undefined;
  }
}

/** A non-text block of a message, by what it points at (its content is not copied). */
function blockLine(block: { type: string; [k: string]: unknown }): string {
  if (block.type === 'resource_link') return `[attached: ${String(block.uri)}]`;
  if (block.type === 'resource') {
    const resource = block.resource as { uri?: unknown } | undefined;
    return `[attached: ${String(resource?.uri ?? 'a resource')}]`;
  }
  if (block.type === 'image') return '[an image]';
  return '';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
