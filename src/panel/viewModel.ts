import { diffLines } from 'diff';
import type { ContentBlock } from '../acp/schema/content';
import type { ToolCallContent } from '../acp/schema/toolCall';
import type { Entry, SessionStateView, ToolCallState } from '../session/state';
import type { BranchView } from './branchViews';
import type {
  CommandView,
  ConfigOptionView,
  ContentView,
  EntryView,
  HeaderView,
  PlanEntryView,
  PickerView,
  QueuedView,
  ToolContentView,
  ToolView,
} from '../shared/protocol';
import { formatCommandLine } from '../terminals/launchPlan';
import { elicitationView } from './elicitationView';
import type { TerminalTail } from './terminalTails';
import * as l10n from '@vscode/l10n';

/**
 * Pure projection of the domain state into the JSON the webview renders. No `vscode`: unit-tested in plain Node.
 * Large raw values are capped here, so a patch stays small whatever the agent sends.
 */

export const RAW_JSON_LIMIT = 20_000;
const RESOURCE_TEXT_LIMIT = 20_000;

/** Command output by terminal id (src/terminals' TerminalOutputModel fits; TerminalTails is the fallback). */
export interface TerminalLookup {
  get(terminalId: string): (TerminalTail & { readonly running?: boolean }) | undefined;
  /** Every terminal a tool call shows, including ids only reported in `_meta` or `rawOutput`. */
  terminalIds?(toolCallId: string): readonly string[];
  /** Whether the host can open a terminal's output in a VS Code terminal. */
  readonly canOpen?: boolean;
}

/** What an entry's view needs from outside the session: command output, and the branches of a user message. */
export interface EntryLookups extends TerminalLookup {
  branch?(entryId: number): BranchView | undefined;
}

export function entryView(entry: Entry, state: SessionStateView, terminals: EntryLookups): EntryView {
  switch (entry.kind) {
    case 'message':
      if (entry.role === 'user') {
        const branch = terminals.branch?.(entry.id);
        return { kind: 'user', id: entry.id, text: entry.text, attachments: entry.blocks.map(contentView), ...(branch ? { branch } : {}), ...(entry.refused ? { refused: true as const } : {}) };
      }
      if (entry.role === 'thought') return { kind: 'thought', id: entry.id, text: entry.text + blocksAsText(entry.blocks) };
      return { kind: 'agent', id: entry.id, text: entry.text, blocks: entry.blocks.map(contentView) };
    case 'tool': {
      const call = state.toolCalls.get(entry.toolCallId);
      const tool: ToolView = call
        ? toolView(call, terminals)
        : { toolCallId: entry.toolCallId, title: l10n.t('Tool call'), kind: 'other', status: 'pending', locations: [], content: [] };
      return { kind: 'tool', id: entry.id, tool };
    }
    case 'notice':
      return { kind: 'notice', id: entry.id, severity: entry.severity, title: entry.title, description: entry.description };
    case 'unknown':
      return { kind: 'unknown', id: entry.id, label: entry.update.original ?? l10n.t('unknown update'), raw: rawJson(entry.update.raw) ?? '' };
    case 'turn-end':
      return { kind: 'turn-end', id: entry.id, stopReason: entry.stopReason, ...(entry.unrecorded?.length ? { unrecorded: entry.unrecorded.map((f) => ({ ...f })) } : {}), ...(entry.tokens ? { tokens: { ...entry.tokens } } : {}) };
    case 'error':
      return { kind: 'error', id: entry.id, message: entry.message, detail: entry.detail, retryable: entry.retryable };
    case 'compaction':
      return {
        kind: 'compaction',
        id: entry.id,
        status: entry.status,
        text: entry.summary.map((b) => (b.type === 'text' ? b.text : '')).join(''),
        blocks: entry.summary.filter((b) => b.type !== 'text').map(contentView),
        ...(entry.error !== undefined ? { error: entry.error } : {}),
      };
    case 'elicitation': {
      const toolCallId = entry.elicitation.toolCallId;
      return { kind: 'elicitation', id: entry.id, elicitation: elicitationView(entry.elicitation, toolCallId === undefined ? undefined : state.toolCalls.get(toolCallId)?.title) };
    }
  }
}

export function toolView(call: ToolCallState, terminals: TerminalLookup): ToolView {
  const untied = new Set(call.hostNotes?.filter((n) => n.kind === 'untied-diff').map((n) => n.path));
  const content = call.content.map((c) => {
    const view = toolContentView(c, terminals);
    return view.type === 'diff' && untied.has(view.path) ? { ...view, untied: true } : view;
  });
  const refused = call.hostNotes?.filter((n) => n.kind === 'written-after-refusal').map((n) => n.path) ?? [];
  // A terminal reported only in `_meta` (no `terminal` content): show it as if it were content.
  for (const id of terminals.terminalIds?.(call.toolCallId) ?? metaTerminalIds(call)) {
    if (!content.some((c) => c.type === 'terminal' && c.terminalId === id) && terminals.get(id)) {
      content.push(terminalView(id, terminals));
    }
  }
  return {
    toolCallId: call.toolCallId,
    title: call.title,
    kind: call.kind,
    status: call.status,
    locations: call.locations.map((l) => ({ path: l.path, line: l.line ?? undefined })),
    content,
    command: commandOf(call.rawInput),
    rawInput: rawJson(call.rawInput),
    rawOutput: rawJson(call.rawOutput),
    permission: call.permission
      ? {
          requestId: call.permission.requestId,
          options: call.permission.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
        }
      : undefined,
    answer: call.permissionAnswer === 'cancelled' ? 'cancelled' : call.permissionAnswer ? { name: call.permissionAnswer.name, kind: call.permissionAnswer.kind } : undefined,
    ...(refused.length ? { writtenAfterRefusal: refused } : {}),
  };
}

export function toolContentView(content: ToolCallContent, terminals: TerminalLookup): ToolContentView {
  switch (content.type) {
    case 'content':
      return { type: 'content', content: contentView(content.content) };
    case 'diff':
      return { type: 'diff', path: content.path, newFile: content.oldText == null, ...lineCounts(content) };
    case 'terminal':
      return terminalView(content.terminalId, terminals);
    default:
      return { type: 'unknown', raw: rawJson(content.raw) ?? '' };
  }
}

function terminalView(terminalId: string, terminals: TerminalLookup): ToolContentView {
  const tail = terminals.get(terminalId);
  return {
    type: 'terminal',
    terminalId,
    output: tail?.output ?? '',
    truncated: tail?.truncated ?? false,
    exit: tail?.exit ? { ...tail.exit } : undefined,
    running: tail?.running,
    openable: (terminals.canOpen ?? false) && tail !== undefined,
  };
}

export function contentView(block: ContentBlock): ContentView {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', mimeType: block.mimeType, data: block.data };
    case 'audio':
      return { type: 'audio', mimeType: block.mimeType, data: block.data };
    case 'resource_link':
      return { type: 'resource_link', uri: block.uri, name: block.name, title: block.title ?? undefined };
    case 'resource': {
      const body = block.resource;
      const text = typeof body.text === 'string' ? body.text.slice(0, RESOURCE_TEXT_LIMIT) : undefined;
      return { type: 'resource', uri: body.uri, mimeType: body.mimeType ?? undefined, text };
    }
    default:
      return { type: 'unknown', label: block.original ?? l10n.t('content'), raw: rawJson(block.raw) ?? '' };
  }
}

/** Thoughts are shown as text; a non-text block in a thought is rare and only named. */
function blocksAsText(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => `\n\n[${b.type === 'unknown' ? b.original ?? 'content' : b.type}]`).join('');
}

const diffCounts = new WeakMap<object, { added: number; removed: number }>();

/** +/- line counts of a diff; cached per content object (the session replaces it, never mutates it). */
export function lineCounts(diff: { oldText?: string | null; newText: string }): { added: number; removed: number } {
  const cached = diffCounts.get(diff);
  if (cached) return cached;
  const oldText = diff.oldText ?? '';
  let counts: { added: number; removed: number };
  if (oldText === '') counts = { added: countLines(diff.newText), removed: 0 };
  else {
    // A bounded diff: past the timeout, fall back to the line counts of both sides. Line ends are not compared, as
    // in the diff editor "Open diff" shows: an agent that read a CRLF file and sent LF text changed the lines it
    // changed, not every line (the file keeps its line ends when Howdah writes it).
    const changes = diffLines(oldText, diff.newText, { timeout: 200, stripTrailingCr: true });
    counts = changes
      ? changes.reduce((acc, c) => ({ added: acc.added + (c.added ? c.count : 0), removed: acc.removed + (c.removed ? c.count : 0) }), { added: 0, removed: 0 })
      : { added: countLines(diff.newText), removed: countLines(oldText) };
  }
  diffCounts.set(diff, counts);
  return counts;
}

function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The command of an execute call, from the raw input shapes agents use (`command` string or argv, `cmd`, and
 * `command` with `args` as in terminal/create).
 */
export function commandOf(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null) return undefined;
  const input = rawInput as Record<string, unknown>;
  const command = input.command ?? input.cmd;
  const args = input.args;
  if (typeof command === 'string' && Array.isArray(args) && args.length > 0 && args.every((a) => typeof a === 'string')) return formatCommandLine(command, args);
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((c) => typeof c === 'string')) return command.join(' ');
  return undefined;
}

export function rawJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > RAW_JSON_LIMIT ? l10n.t('{0}\n… ({1} more characters)', text.slice(0, RAW_JSON_LIMIT), text.length - RAW_JSON_LIMIT) : text;
}

function metaTerminalIds(call: ToolCallState): string[] {
  const ids: string[] = [];
  for (const key of ['terminal_info', 'terminal_output', 'terminal_exit']) {
    const piece = call.meta?.[key];
    if (typeof piece !== 'object' || piece === null) continue;
    const id = (piece as Record<string, unknown>).terminal_id;
    const terminalId = typeof id === 'string' ? id : `tool:${call.toolCallId}`;
    if (!ids.includes(terminalId)) ids.push(terminalId);
  }
  return ids;
}

export interface HeaderContext {
  readonly status: HeaderView['status'];
  readonly sessionKey?: string;
  readonly agentName?: string;
  readonly agentVersion?: string;
  readonly sessions: HeaderView['sessions'];
  readonly capabilities: HeaderView['capabilities'];
  readonly workspaceFolders?: HeaderView['workspaceFolders'];
  readonly allowances?: HeaderView['allowances'];
}

export function headerView(state: SessionStateView | undefined, context: HeaderContext): HeaderView {
  if (!state) return { ...context, configOptions: [] };
  const configOptions = state.configOptions.map(configOptionView);
  const hasCategory = (category: string) => state.configOptions.some((o) => o.category === category);
  const modes: PickerView | undefined =
    state.modes && !hasCategory('mode')
      ? { current: state.modes.currentModeId, options: state.modes.availableModes.map((m) => ({ value: m.id, name: m.name, description: m.description ?? undefined })) }
      : undefined;
  const models: PickerView | undefined =
    state.models && !hasCategory('model')
      ? { current: state.models.currentModelId, options: state.models.availableModels.map((m) => ({ value: m.modelId, name: m.name, description: m.description ?? undefined })) }
      : undefined;
  return {
    ...context,
    title: state.info.title,
    modes,
    models,
    configOptions,
    usage: state.usage ? { used: state.usage.used, size: state.usage.size, cost: state.usage.cost ? { ...state.usage.cost } : undefined } : undefined,
  };
}

function configOptionView(option: SessionStateView['configOptions'][number]): ConfigOptionView {
  const common = { id: option.id, name: option.name, description: option.description ?? undefined, category: option.category ?? undefined };
  if (option.type === 'boolean') return { ...common, type: 'boolean', current: option.currentValue };
  const choice = (o: { value: string; name: string; description?: string | null }) => ({ value: o.value, name: o.name, description: o.description ?? undefined });
  const groups =
    option.options.kind === 'flat'
      ? [{ options: option.options.options.map(choice) }]
      : option.options.groups.map((g) => ({ name: g.name, options: g.options.map(choice) }));
  return { ...common, type: 'select', current: option.currentValue, groups };
}

export function planView(state: SessionStateView): PlanEntryView[] {
  return state.plan.map((p) => ({ content: p.content, priority: p.priority, status: p.status }));
}

/** The queued messages; an attachment shows by its label (a queued one was given by our own page, but is not trusted). */
export function queueView(state: SessionStateView): QueuedView[] {
  return state.queue.items.map((m) => ({
    id: m.id,
    text: m.text,
    attachments: m.attachments.map((a) => (typeof a === 'object' && a !== null && typeof (a as { label?: unknown }).label === 'string' ? (a as { label: string }).label : 'attachment')),
  }));
}

export function commandsView(state: SessionStateView): CommandView[] {
  return state.commands.map((c) => ({ name: c.name, description: c.description, hint: c.input?.hint || undefined }));
}

/**
 * The turn a user message started, as the edits layer numbers turns for its checkpoints: how many user messages come
 * before it. Undefined when `entryId` is not a user message of these entries.
 */
export function userTurnIndex(entries: SessionStateView['entries'], entryId: number): number | undefined {
  let before = 0;
  for (const entry of entries) {
    const user = entry.kind === 'message' && entry.role === 'user';
    if (entry.id === entryId) return user ? before : undefined;
    if (user) before++;
  }
  return undefined;
}
