import { z } from 'zod';
import { ALLOWANCE_SETTINGS, type AllowancesView } from './allowances';
import { ELICITATION_INTENTS, type ElicitationView } from './elicitationProtocol';
import { GATE_INTENTS, type GateMessage } from './gateProtocol';
import type { WorkspaceFolderView } from './workspacePaths';

/**
 * Every message between the extension host and the chat webview. The host is the source of truth: it sends a full
 * `snapshot` when the webview says `ready`, then `patch`es. The webview sends user intents, which the host parses
 * with the zod schemas below before acting (the webview renders agent-supplied content, so it is the less trusted
 * side). The webview imports this file for its types only.
 */

// ─── View model: plain JSON the host derives from the session state ─────────────────────────────────────────────

/** A content block as shown. Images carry base64 data; the webview builds a `data:` URI for image/* types only. */
export type ContentView =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mimeType: string; readonly data: string }
  | { readonly type: 'audio'; readonly mimeType: string; readonly data: string }
  | { readonly type: 'resource_link'; readonly uri: string; readonly name: string; readonly title?: string }
  | { readonly type: 'resource'; readonly uri: string; readonly mimeType?: string; readonly text?: string }
  | { readonly type: 'unknown'; readonly label: string; readonly raw: string };

export interface TerminalExitView {
  readonly code: number | null;
  readonly signal: string | null;
}

export type ToolContentView =
  | { readonly type: 'content'; readonly content: ContentView }
  | {
      readonly type: 'diff';
      readonly path: string;
      readonly added: number;
      readonly removed: number;
      readonly newFile: boolean;
      /** No reviewable change on disk matches it: "Open diff" shows only what the agent reported. */
      readonly untied?: boolean;
    }
  | {
      readonly type: 'terminal';
      readonly terminalId: string;
      /** The tail of the output, control sequences still in (the webview strips them). */
      readonly output: string;
      readonly truncated: boolean;
      readonly exit?: TerminalExitView;
      /** False once the command ended without an exit report; undefined when unknown. */
      readonly running?: boolean;
      /** The host can show this output in a VS Code terminal (`openTerminal`). */
      readonly openable?: boolean;
    }
  | { readonly type: 'unknown'; readonly raw: string };

export interface LocationView {
  readonly path: string;
  readonly line?: number;
}

export interface PermissionOptionView {
  readonly optionId: string;
  readonly name: string;
  /** allow_once, allow_always, reject_once, reject_always, or an agent's own string. */
  readonly kind: string;
}

export interface ToolView {
  readonly toolCallId: string;
  readonly title: string;
  readonly kind: string;
  /** pending, in_progress, completed, failed, rejected, cancelled (or an agent's own string). */
  readonly status: string;
  readonly locations: readonly LocationView[];
  readonly content: readonly ToolContentView[];
  /** The command an execute call runs, from its raw input, shown in full. */
  readonly command?: string;
  /** JSON, pretty-printed and capped. */
  readonly rawInput?: string;
  readonly rawOutput?: string;
  readonly permission?: { readonly requestId: number; readonly options: readonly PermissionOptionView[] };
  readonly answer?: { readonly name: string; readonly kind: string } | 'cancelled';
  /** Files the agent wrote itself after its write was refused. */
  readonly writtenAfterRefusal?: readonly string[];
}

export type EntryView =
  | {
      readonly kind: 'user';
      readonly id: number;
      readonly text: string;
      readonly attachments: readonly ContentView[];
      /** This message was edited: "Branch index of total", with Previous/Next branch. */
      readonly branch?: { readonly index: number; readonly total: number };
      /** The agent refused it: not part of the agent's context any more. */
      readonly refused?: true;
    }
  | { readonly kind: 'agent'; readonly id: number; readonly text: string; readonly blocks: readonly ContentView[] }
  | { readonly kind: 'thought'; readonly id: number; readonly text: string }
  | { readonly kind: 'tool'; readonly id: number; readonly tool: ToolView }
  | { readonly kind: 'notice'; readonly id: number; readonly severity: string; readonly title: string; readonly description?: string }
  | { readonly kind: 'unknown'; readonly id: number; readonly label: string; readonly raw: string }
  | {
      readonly kind: 'turn-end';
      readonly id: number;
      readonly stopReason: string;
      readonly unrecorded?: readonly { readonly path: string; readonly why: string }[];
      /** The turn's token counts, when the agent said them. */
      readonly tokens?: { readonly input: number; readonly output: number; readonly thought?: number; readonly cachedRead?: number };
    }
  | { readonly kind: 'error'; readonly id: number; readonly message: string; readonly detail?: string; readonly retryable: boolean }
  | { readonly kind: 'elicitation'; readonly id: number; readonly elicitation: ElicitationView }
  /** A context compaction: in_progress, completed, failed, cancelled (or an agent's own status); its summary's text and other blocks. */
  | { readonly kind: 'compaction'; readonly id: number; readonly status: string; readonly text: string; readonly blocks: readonly ContentView[]; readonly error?: string };

export interface SelectChoiceView {
  readonly value: string;
  readonly name: string;
  readonly description?: string;
}

export type ConfigOptionView =
  | {
      readonly type: 'select';
      readonly id: string;
      readonly name: string;
      readonly description?: string;
      readonly category?: string;
      readonly current: string;
      /** Flat options are one group without a name. */
      readonly groups: readonly { readonly name?: string; readonly options: readonly SelectChoiceView[] }[];
    }
  | { readonly type: 'boolean'; readonly id: string; readonly name: string; readonly description?: string; readonly category?: string; readonly current: boolean };

export interface PickerView {
  readonly current: string;
  readonly options: readonly SelectChoiceView[];
}

export type SessionStatusView = 'none' | 'starting' | 'ready' | 'restarting' | 'exited';

export interface HeaderView {
  readonly status: SessionStatusView;
  readonly sessionKey?: string;
  readonly agentName?: string;
  readonly agentVersion?: string;
  readonly title?: string;
  /** Every session, for the session picker. */
  readonly sessions: readonly { readonly key: string; readonly label: string }[];
  /** Legacy modes, only when no config option has category `mode`. */
  readonly modes?: PickerView;
  /** Legacy models, only when no config option has category `model`. */
  readonly models?: PickerView;
  readonly configOptions: readonly ConfigOptionView[];
  readonly usage?: { readonly used: number; readonly size: number; readonly cost?: { readonly amount: number; readonly currency: string } };
  /** `midTurn`: the agent takes a message while a turn runs (Send now goes into the turn). */
  readonly capabilities: { readonly image: boolean; readonly audio?: boolean; readonly embeddedContext: boolean; readonly midTurn?: boolean };
  /** The workspace folders (file paths), so paths inside them are shown relative to them. */
  readonly workspaceFolders?: readonly WorkspaceFolderView[];
  /** What the agent may do (folders, read, write, commands, MCP servers): shown before the first prompt. */
  readonly allowances?: AllowancesView;
}

export interface PlanEntryView {
  readonly content: string;
  readonly priority: string;
  readonly status: string;
}

export interface CommandView {
  readonly name: string;
  readonly description: string;
  readonly hint?: string;
}

export type TurnView = 'idle' | 'running' | 'cancelling';

/** A message the user sent during a turn, waiting for it to end (shown above the prompt). */
export interface QueuedView {
  readonly id: number;
  readonly text: string;
  /** The labels of its attachments. */
  readonly attachments: readonly string[];
}

/** Something attached to the prompt: sent back with `send`, or pushed by the Add Selection/File commands. */
export type Attachment =
  | { readonly kind: 'file'; readonly uri: string; readonly label: string }
  | {
      readonly kind: 'selection';
      readonly uri: string;
      readonly label: string;
      readonly startLine: number;
      readonly endLine: number;
      readonly text: string;
      readonly languageId?: string;
    }
  | { readonly kind: 'image'; readonly mimeType: string; readonly data: string; readonly label: string }
  /** A sound file, sent as an ACP `audio` block to agents that accept audio. */
  | { readonly kind: 'audio'; readonly mimeType: string; readonly data: string; readonly label: string }
  /** Text VS Code knows that is not a file's: the Problems of a file, a terminal's selection. */
  | { readonly kind: 'context'; readonly source: 'problems' | 'terminal'; readonly label: string; readonly text: string };

export interface FileMatchView {
  readonly uri: string;
  /** Workspace-relative path. */
  readonly label: string;
}

// ─── Host → webview ─────────────────────────────────────────────────────────────────────────────────────────────

export interface SnapshotMessage {
  readonly type: 'snapshot';
  /** Increases with every snapshot; patches of an older epoch are ignored. */
  readonly epoch: number;
  readonly header: HeaderView;
  /**
   * The index of `entries[0]` in the whole transcript (0 when absent). A long conversation is sent as its tail;
   * the page asks for older entries (`loadEarlier`) only when the reader wants them, so opening the panel on a
   * day-long session costs the same as on a short one.
   */
  readonly first?: number;
  readonly entries: readonly EntryView[];
  readonly plan: readonly PlanEntryView[];
  readonly commands: readonly CommandView[];
  readonly turn: TurnView;
  readonly queue: readonly QueuedView[];
}

export type PatchOp =
  /** Replaces entry `index`, or appends it when `index` is the current length. */
  | { readonly op: 'entry'; readonly index: number; readonly entry: EntryView }
  /**
   * Appends `delta` to the text of message entry `index`, whose text had `offset` characters. With `skip`, an answer
   * floods in faster than the page takes it (src/panel/floodGaps.ts): `offset` is where the page's own text ends, the
   * `skip` characters after it come later (`fill`), and `delta` is the newest text after them, replacing whatever
   * newest text the page held after an earlier skip.
   */
  | { readonly op: 'append'; readonly index: number; readonly offset: number; readonly delta: string; readonly skip?: number }
  /** The first characters of the text skipped by an append's `skip`, which follow the page's own text at `offset`. */
  | { readonly op: 'fill'; readonly index: number; readonly offset: number; readonly delta: string }
  | { readonly op: 'header'; readonly header: HeaderView }
  | { readonly op: 'plan'; readonly plan: readonly PlanEntryView[] }
  | { readonly op: 'commands'; readonly commands: readonly CommandView[] }
  | { readonly op: 'turn'; readonly turn: TurnView }
  | { readonly op: 'queue'; readonly queue: readonly QueuedView[] };

export interface PatchMessage {
  readonly type: 'patch';
  readonly epoch: number;
  readonly ops: readonly PatchOp[];
}

/** Older entries the page asked for: `entries[0]` is entry `first`, the last one is just before the page's own first. */
export interface EarlierMessage {
  readonly type: 'earlier';
  readonly epoch: number;
  readonly first: number;
  readonly entries: readonly EntryView[];
}

export type HostMessage =
  | SnapshotMessage
  | PatchMessage
  | EarlierMessage
  | { readonly type: 'fileResults'; readonly requestId: number; readonly files: readonly FileMatchView[] }
  | { readonly type: 'attach'; readonly attachments: readonly Attachment[] }
  | { readonly type: 'focusPrompt' }
  /** A sent message is held: these workspace files have unsaved changes the agent would not see (null: gone). */
  | { readonly type: 'unsaved'; readonly notice: { readonly id: number; readonly files: readonly string[] } | null }
  /** Back into the prompt box: a held message the user cancelled. */
  | { readonly type: 'draft'; readonly text: string; readonly attachments: readonly Attachment[] }
  | GateMessage;

// ─── Webview → host (parsed on arrival) ─────────────────────────────────────────────────────────────────────────

const id = z.string().min(1).max(1_000);
const MAX_TEXT = 1_000_000;
const MAX_IMAGE = 20_000_000;

export const AttachmentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), uri: z.string().max(10_000), label: z.string().max(10_000) }),
  z.object({
    kind: z.literal('selection'),
    uri: z.string().max(10_000),
    label: z.string().max(10_000),
    startLine: z.number().int().nonnegative(),
    endLine: z.number().int().nonnegative(),
    text: z.string().max(MAX_TEXT),
    languageId: z.string().max(100).optional(),
  }),
  z.object({ kind: z.literal('context'), source: z.enum(['problems', 'terminal']), label: z.string().max(1_000), text: z.string().max(MAX_TEXT) }),
  z.object({
    kind: z.literal('image'),
    mimeType: z.string().regex(/^image\/[a-z0-9.+-]+$/i),
    data: z.string().max(MAX_IMAGE).regex(/^[A-Za-z0-9+/=]*$/),
    label: z.string().max(1_000),
  }),
  z.object({
    kind: z.literal('audio'),
    mimeType: z.string().regex(/^audio\/[a-z0-9.+-]+$/i),
    data: z.string().max(MAX_IMAGE).regex(/^[A-Za-z0-9+/=]*$/),
    label: z.string().max(1_000),
  }),
]);

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  /** The webview (re)started and wants a snapshot; also sent when it notices it missed a patch. */
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('send'), text: z.string().max(MAX_TEXT), attachments: z.array(AttachmentSchema).max(100) }),
  /** "Show earlier" reached the oldest entry the page holds: send up to `count` entries before entry `before`. */
  z.object({ type: z.literal('loadEarlier'), before: z.number().int().nonnegative(), count: z.number().int().min(1).max(1_000) }),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('retry') }),
  z.object({ type: z.literal('newSession') }),
  z.object({ type: z.literal('selectSession'), key: id }),
  z.object({ type: z.literal('permission'), toolCallId: id, optionId: id }),
  z.object({ type: z.literal('setMode'), modeId: id }),
  z.object({ type: z.literal('setConfigOption'), configId: id, value: z.union([z.string().max(1_000), z.boolean()]) }),
  z.object({ type: z.literal('setModel'), modelId: id }),
  z.object({ type: z.literal('openLink'), href: z.string().min(1).max(10_000) }),
  z.object({ type: z.literal('openLocation'), path: z.string().min(1).max(10_000), line: z.number().int().nonnegative().optional() }),
  z.object({ type: z.literal('openDiff'), toolCallId: id, index: z.number().int().nonnegative() }),
  z.object({ type: z.literal('openTerminal'), terminalId: id }),
  z.object({ type: z.literal('searchFiles'), requestId: z.number().int().nonnegative(), query: z.string().max(1_000) }),
  z.object({ type: z.literal('copy'), text: z.string().max(MAX_TEXT) }),
  /** A link of the "what the agent may do" summary: opens that setting. */
  z.object({ type: z.literal('openSetting'), setting: z.enum(ALLOWANCE_SETTINGS) }),
  ...GATE_INTENTS,
  ...ELICITATION_INTENTS,
  /** "Restore files to before this message" on the user message with this entry id. */
  z.object({ type: z.literal('restoreCheckpoint'), entryId: z.number().int().nonnegative() }),
  /** "Fork from here" on the message with this entry id: a new conversation that continues from it. */
  z.object({ type: z.literal('fork'), entryId: z.number().int().nonnegative() }),
  /** "Regenerate" on the agent answer with this entry id: its user message sent again, from before it. */
  z.object({ type: z.literal('regenerate'), entryId: z.number().int().nonnegative() }),
  /** "Edit message" on the user message with this entry id, submitted with its new text. */
  z.object({ type: z.literal('editMessage'), entryId: z.number().int().nonnegative(), text: z.string().min(1).max(MAX_TEXT) }),
  /** "Previous branch" (-1) / "Next branch" (1) on the edited user message with this entry id. */
  z.object({ type: z.literal('switchBranch'), entryId: z.number().int().nonnegative(), direction: z.union([z.literal(-1), z.literal(1)]) }),
  /** The unsaved-files notice: Save all and send, Send anyway, Cancel (the message back in the prompt), the setting. */
  z.object({ type: z.literal('unsavedChoice'), id: z.number().int().nonnegative(), choice: z.enum(['save', 'send', 'cancel', 'settings']) }),
  /** A queued message's Edit (new text), Remove and Send now (stop the turn, then send it). */
  z.object({ type: z.literal('queueEdit'), id: z.number().int().nonnegative(), text: z.string().max(MAX_TEXT) }),
  z.object({ type: z.literal('queueRemove'), id: z.number().int().nonnegative() }),
  z.object({ type: z.literal('queueSendNow'), id: z.number().int().nonnegative() }),
]);

export type WebviewMessage = z.output<typeof WebviewMessageSchema>;
export type WebviewMessageOf<T extends WebviewMessage['type']> = Extract<WebviewMessage, { type: T }>;

/** Parses a message from the webview; undefined (with the reason passed to `log`) when it is not one we accept. */
export function parseWebviewMessage(raw: unknown, log?: (reason: string) => void): WebviewMessage | undefined {
  const parsed = WebviewMessageSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  log?.(`Dropped an invalid message from the chat view: ${z.prettifyError(parsed.error).slice(0, 500)}`);
  return undefined;
}
