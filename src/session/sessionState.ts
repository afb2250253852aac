import type { ContentBlock } from '../acp/schema/content';
import type { TurnTokens } from '../acp/compat';
import { Emitter, type Event } from '../base/event';
import type { ConfigOption, SessionModeState, SessionModelState } from '../acp/schema/sessionConfig';
import type { AvailableCommand, PlanEntry, SessionUpdate } from '../acp/schema/sessionUpdate';
import type { ToolCallUpdate } from '../acp/schema/toolCall';
import type { Entry, HostNote, MessageRole, SessionChange, SessionInfoState, SessionStateView, ToolCallState, TurnState, UnrecordedChange, Usage } from './state';
import { Compactions } from './compactions';
import type { ElicitationRecord } from './elicitationRecord';
import { PromptQueue, type QueuedMessage } from './promptQueue';
import { createToolCall, patchToolCall, replaceToolCall } from './toolCalls';
import * as l10n from '@vscode/l10n';

/**
 * Reduces `session/update` notifications into the domain state of one session. Every update kind is handled;
 * unknown kinds are kept as entries with their raw JSON. Pure: no I/O, no VS Code.
 */
export class SessionState implements SessionStateView {
  readonly entries: Entry[] = [];
  readonly toolCalls = new Map<string, ToolCallState>();
  plan: PlanEntry[] = [];
  commands: AvailableCommand[] = [];
  modes: SessionModeState | undefined;
  models: SessionModelState | undefined;
  configOptions: ConfigOption[] = [];
  info: SessionInfoState = {};
  usage: Usage | undefined;
  turn: TurnState = 'idle';
  private nextEntryId = 1;
  /** User messages in the transcript: the next turn's index. */
  private userMessages = 0;
  /** The running turn's index, from `beginTurn` to `endTurn`. */
  private turnIndex: number | undefined;
  private readonly changes = new Emitter<SessionChange>();
  readonly onChange: Event<SessionChange> = this.changes.event;
  readonly queue = new PromptQueue(() => this.emit({ type: 'queue' }));
  /**
   * The conversation this session continues (written out by `conversationContext`), for the agent: it goes with the
   * next prompt, then is cleared. Saved with the transcript.
   */
  carryOver: string | undefined;
  private readonly compactions = new Compactions({
    entries: this.entries,
    add: (entry) => {
      this.addEntry({ ...entry, id: this.nextEntryId++ });
      return this.entries.length - 1;
    },
    changed: (index) => this.emit({ type: 'entry-changed', index }),
  });
  /** Index of the latest message entry per role + messageId: a chunk for an earlier message needs no scan. */
  private readonly messageIndex = new Map<string, number>();

  /** Replaces the transcript with a saved one (a window reload); ids continue after the highest saved. */
  restore(saved: { entries: readonly Entry[]; toolCalls: readonly ToolCallState[]; plan: readonly PlanEntry[]; title?: string; queue?: readonly QueuedMessage[]; carryOver?: string }): void {
    // No spread: a long transcript (>100,000 entries) overflows the call stack as arguments.
    this.entries.length = 0;
    this.messageIndex.clear();
    this.userMessages = 0;
    let maxId = 0;
    for (const entry of saved.entries) {
      // A question still open when the window closed was never answered by the user; its agent is gone.
      if (entry.kind === 'elicitation' && entry.elicitation.status === 'waiting') Object.assign(entry.elicitation, { status: 'cancelled', endedBy: 'closed' });
      this.indexEntry(entry, this.entries.push(entry) - 1);
      maxId = Math.max(maxId, entry.id);
    }
    this.toolCalls.clear();
    for (const call of saved.toolCalls) this.toolCalls.set(call.toolCallId, { ...call });
    this.plan = [...saved.plan];
    this.info = { ...this.info, title: saved.title };
    this.nextEntryId = maxId + 1;
    if (saved.queue?.length) this.queue.restore(saved.queue);
    this.carryOver = saved.carryOver;
    this.emit({ type: 'reset' });
  }

  /** Removes entries from `start` on (a conversation continued from an earlier point); their tool calls go with them. */
  removeEntriesFrom(start: number): void {
    const end = this.entries.length;
    if (start < 0 || start >= end) return;
    for (const entry of this.entries.splice(start)) {
      if (entry.kind === 'tool') this.toolCalls.delete(entry.toolCallId);
      if (entry.kind === 'message' && entry.role === 'user') this.userMessages--;
      if (entry.kind === 'message' && entry.messageId !== undefined && (this.messageIndex.get(`${entry.role}:${entry.messageId}`) ?? -1) >= start) {
        this.messageIndex.delete(`${entry.role}:${entry.messageId}`);
      }
    }
    this.emit({ type: 'entries-removed', start, end });
  }

  /** Drops every listener: the session is closed. */
  dispose(): void {
    this.changes.dispose();
  }

  apply(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
        return this.appendChunk('user', update.content, update.messageId ?? undefined);
      case 'agent_message_chunk':
        return this.appendChunk('agent', update.content, update.messageId ?? undefined);
      case 'agent_thought_chunk':
        return this.appendChunk('thought', update.content, update.messageId ?? undefined);
      case 'tool_call': {
        const existing = this.toolCalls.get(update.toolCallId);
        if (existing) {
          replaceToolCall(existing, update);
          return this.emit({ type: 'tool-call', toolCallId: update.toolCallId });
        }
        return this.addToolCall(createToolCall(update, false));
      }
      case 'tool_call_update':
        return this.updateToolCall(update);
      case 'plan':
        this.plan = update.entries;
        return this.emit({ type: 'plan' });
      case 'available_commands_update':
        this.commands = update.availableCommands;
        return this.emit({ type: 'commands' });
      case 'current_mode_update':
        this.setCurrentMode(update.currentModeId);
        return;
      case 'config_option_update':
        this.setConfigOptions(update.configOptions);
        return;
      case 'session_info_update':
        // Patch semantics: absent leaves the field, null clears it.
        if (update.title !== undefined) this.info = { ...this.info, title: update.title ?? undefined };
        if (update.updatedAt !== undefined) this.info = { ...this.info, updatedAt: update.updatedAt ?? undefined };
        return this.emit({ type: 'info' });
      case 'usage_update':
        this.usage = { used: update.used, size: update.size, cost: update.cost ?? undefined };
        return this.emit({ type: 'usage' });
      case 'notice':
        return this.addEntry({ kind: 'notice', id: this.nextEntryId++, severity: update.severity, title: update.title, description: update.description ?? undefined, live: true });
      case 'compaction_update':
        return this.compactions.update(update);
      case 'compaction_summary_chunk':
        return this.compactions.chunk(update);
      case 'unknown':
        return this.addEntry({ kind: 'unknown', id: this.nextEntryId++, update });
    }
  }

  /** The mode, from `current_mode_update` or the config option of category `mode`. */
  setCurrentMode(modeId: string): void {
    if (this.modes) {
      this.modes = { ...this.modes, currentModeId: modeId };
      this.emit({ type: 'modes' });
    }
    const modeOption = this.configOptions.find((o) => o.category === 'mode' && o.type === 'select');
    if (modeOption?.type === 'select' && modeOption.currentValue !== modeId) {
      const updated: ConfigOption = { ...modeOption, currentValue: modeId };
      this.configOptions = this.configOptions.map((o) => (o === modeOption ? updated : o));
      this.emit({ type: 'config' });
    }
  }

  setConfigOptions(options: ConfigOption[]): void {
    this.configOptions = options;
    this.emit({ type: 'config' });
    const mode = options.find((o) => o.category === 'mode' && o.type === 'select');
    if (mode && this.modes && this.modes.currentModeId !== mode.currentValue) {
      this.modes = { ...this.modes, currentModeId: String(mode.currentValue) };
      this.emit({ type: 'modes' });
    }
  }

  setModes(modes: SessionModeState | undefined, models: SessionModelState | undefined): void {
    this.modes = modes;
    this.models = models;
    this.emit({ type: 'modes' });
  }

  setCurrentModel(modelId: string): void {
    if (!this.models) return;
    this.models = { ...this.models, currentModelId: modelId };
    this.emit({ type: 'modes' });
  }

  /** A turn starts on the user message just added; returns its index (0 = the turn of the first user message). */
  beginTurn(): number {
    if (this.turnIndex !== undefined) throw new Error(l10n.t('A turn is already running in this session'));
    const index = Math.max(0, this.userMessages - 1);
    this.turnIndex = index;
    this.setTurn('running');
    this.emit({ type: 'turn-started', index });
    return index;
  }

  /** The running turn is being cancelled. */
  cancellingTurn(): void {
    if (this.turn === 'running') this.setTurn('cancelling');
  }

  /** The running turn is over; `stopReason` absent when it failed or was cut off. */
  endTurn(stopReason?: string): void {
    const index = this.turnIndex;
    if (index === undefined) return;
    this.turnIndex = undefined;
    this.setTurn('idle');
    this.emit({ type: 'turn-ended', index, ...(stopReason !== undefined ? { stopReason } : {}) });
  }

  /** User messages in the transcript (kept as entries come and go, not counted on each ask). */
  get userMessageCount(): number {
    return this.userMessages;
  }

  /** The running turn's index, if one runs. */
  get runningTurn(): number | undefined {
    return this.turnIndex;
  }

  /** A permission prompt on `toolCallId` started (`waiting`) or ended: its card and the alerts follow. */
  changedPermission(toolCallId: string, waiting: boolean): void {
    this.emit({ type: 'tool-call', toolCallId });
    this.emit({ type: waiting ? 'permission-requested' : 'permission-settled', toolCallId });
  }

  /** The agent asked the user something (in this session): its card goes at the end of the transcript. */
  addElicitation(record: ElicitationRecord): void {
    this.addEntry({ kind: 'elicitation', id: this.nextEntryId++, elicitation: record });
    this.emit({ type: 'elicitation-requested', key: record.key });
  }

  /** An elicitation's status changed: its card follows, and the alerts when it no longer waits. */
  changedElicitation(record: ElicitationRecord): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry.kind === 'elicitation' && entry.elicitation.key === record.key) {
        this.emit({ type: 'entry-changed', index: i });
        break;
      }
    }
    if (record.status !== 'waiting') this.emit({ type: 'elicitation-settled', key: record.key });
  }

  private setTurn(turn: TurnState): void {
    if (this.turn === turn) return;
    this.turn = turn;
    this.emit({ type: 'turn' });
  }

  /** A user message we sent (the agent does not echo prompts). */
  addUserMessage(blocks: ContentBlock[]): void {
    // Several text blocks (a review round's comments) read as paragraphs, not run together.
    const text = blocks.flatMap((b) => (b.type === 'text' && b.text !== '' ? [b.text] : [])).join('\n\n');
    this.addEntry({ kind: 'message', id: this.nextEntryId++, role: 'user', text, blocks: blocks.filter((b) => b.type !== 'text') });
  }

  addTurnEnd(stopReason: string, tokens?: TurnTokens): void {
    if (stopReason === 'refusal') this.markLastUserMessageRefused();
    this.addEntry({ kind: 'turn-end', id: this.nextEntryId++, stopReason, ...(tokens ? { tokens } : {}) });
  }

  /** ACP: after a `refusal` the user's prompt is not in the agent's context, so the transcript must not suggest it is. */
  private markLastUserMessageRefused(): void {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry.kind !== 'message' || entry.role !== 'user') continue;
      entry.refused = true;
      this.emit({ type: 'entry-changed', index: i });
      return;
    }
  }

  /** A note of Howdah's own in the transcript (not the agent's). */
  addNote(title: string, description?: string): void {
    this.addEntry({ kind: 'notice', id: this.nextEntryId++, severity: 'info', title, ...(description ? { description } : {}) });
  }

  addError(message: string, detail: string | undefined, retryable: boolean): void {
    this.addEntry({ kind: 'error', id: this.nextEntryId++, message, detail, retryable });
  }

  /** The tool call a permission request concerns, created (and announced) from the request if needed. */
  toolCallFor(update: ToolCallUpdate): ToolCallState {
    const existing = this.toolCalls.get(update.toolCallId);
    if (existing) {
      patchToolCall(existing, update);
      return existing;
    }
    const created = createToolCall(update, true);
    this.addToolCall(created);
    return created;
  }

  /**
   * The tool call a change concerns: an update of one (`tool-call`), or its announcement (a `tool` entry added, which
   * emits no `tool-call` change). Listeners that follow tool calls need both: an agent may announce a call and act on
   * it at once (Codex applies a patch as it announces it), with the next change coming only when it is done.
   */
  toolCallOf(change: SessionChange): ToolCallState | undefined {
    if (change.type === 'tool-call') return this.toolCalls.get(change.toolCallId);
    if (change.type !== 'entry-added') return undefined;
    const entry = this.entries[change.index];
    return entry?.kind === 'tool' ? this.toolCalls.get(entry.toolCallId) : undefined;
  }

  changedToolCall(toolCallId: string): void {
    this.emit({ type: 'tool-call', toolCallId });
  }

  /** Adds a client's finding to a tool call's card (once per kind and path). */
  addToolCallNote(toolCallId: string, note: HostNote): void {
    const call = this.toolCalls.get(toolCallId);
    if (!call || call.hostNotes?.some((n) => n.kind === note.kind && n.path === note.path)) return;
    (call.hostNotes ??= []).push(note);
    this.emit({ type: 'tool-call', toolCallId });
  }

  /**
   * Says on the footer of turn `turnIndex` (0 = the turn of the first user message) which files it changed without a
   * recorded original. False when that turn has not ended yet.
   */
  noteUnrecorded(turnIndex: number, files: readonly UnrecordedChange[]): boolean {
    let users = -1;
    for (let i = 0; i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (entry.kind === 'message' && entry.role === 'user') users++;
      else if (entry.kind === 'turn-end' && users === turnIndex) {
        const known = new Set((entry.unrecorded ?? []).map((f) => f.path));
        entry.unrecorded = [...(entry.unrecorded ?? []), ...files.filter((f) => !known.has(f.path))];
        this.emit({ type: 'entry-changed', index: i });
        return true;
      }
    }
    return false;
  }

  private updateToolCall(update: ToolCallUpdate): void {
    const existing = this.toolCalls.get(update.toolCallId);
    if (!existing) {
      // Gemini sends updates for ids it never announced: create the entry (agents-in-the-wild.md).
      this.addToolCall(createToolCall(update, true));
      return;
    }
    patchToolCall(existing, update);
    this.emit({ type: 'tool-call', toolCallId: update.toolCallId });
  }

  private addToolCall(state: ToolCallState): void {
    this.toolCalls.set(state.toolCallId, state);
    this.addEntry({ kind: 'tool', id: this.nextEntryId++, toolCallId: state.toolCallId });
  }

  /**
   * Chunks with the same `messageId` form one message; a new id starts a new one. Without ids, consecutive chunks of
   * the same role form a message and anything in between (a tool call, another role) ends it.
   */
  private appendChunk(role: MessageRole, block: ContentBlock, messageId: string | undefined): void {
    const last = this.entries[this.entries.length - 1];
    if (last?.kind === 'message' && last.role === role && last.messageId === messageId) {
      if (block.type === 'text') last.text += block.text;
      else last.blocks.push(block);
      this.emit({ type: 'entry-changed', index: this.entries.length - 1, ...(block.type === 'text' ? { appended: block.text } : {}) });
      return;
    }
    if (messageId !== undefined) {
      // A chunk for an earlier message that is no longer last (rare): append there. Looked up, not scanned for: every
      // new message with an id asks, and a scan of the whole transcript each time made a long session quadratic.
      const i = this.messageIndex.get(`${role}:${messageId}`);
      const entry = i === undefined ? undefined : this.entries[i];
      if (entry?.kind === 'message') {
        if (block.type === 'text') entry.text += block.text;
        else entry.blocks.push(block);
        this.emit({ type: 'entry-changed', index: i!, ...(block.type === 'text' ? { appended: block.text } : {}) });
        return;
      }
    }
    const text = block.type === 'text' ? block.text : '';
    const blocks = block.type === 'text' ? [] : [block];
    this.addEntry({ kind: 'message', id: this.nextEntryId++, role, messageId, text, blocks });
  }

  private addEntry(entry: Entry): void {
    this.indexEntry(entry, this.entries.push(entry) - 1);
    this.emit({ type: 'entry-added', index: this.entries.length - 1 });
  }

  private indexEntry(entry: Entry, index: number): void {
    if (entry.kind === 'message' && entry.role === 'user') this.userMessages++;
    if (entry.kind === 'message' && entry.messageId !== undefined) this.messageIndex.set(`${entry.role}:${entry.messageId}`, index);
  }

  private emit(change: SessionChange): void {
    this.changes.fire(change);
  }
}
