import type { AcpConnection } from '../acp/connection';
import { ConnectionClosedError, RpcError } from '../acp/errors';
import { turnTokens, type TurnTokens } from '../acp/compat';
import type { LoadSessionResult, PromptBlock, StopReason } from '../acp/schema/agentMethods';
import type { PermissionOutcome, RequestPermissionParams } from '../acp/schema/clientMethods';
import type { SessionUpdate } from '../acp/schema/sessionUpdate';
import { PendingElicitations } from './elicitations';
import { SessionState } from './sessionState';
import type { ToolCallState } from './state';
import * as l10n from '@vscode/l10n';

export interface SessionHooks {
  /** The user picked a mode, config value or model (to remember as a default for the agent). */
  onUserChoice?(key: string, value: string | boolean): void;
}

/** How long after Stop the agent has to end its turn before Howdah stops waiting for it. */
export const CANCEL_GRACE_MS = 2000;

interface WaitingAnswer {
  resolve(outcome: PermissionOutcome): void;
}

/**
 * One ACP session: its domain state, its turns and the permission prompts that wait on the user (their only owner:
 * the protocol layer passes each request's signal and keeps no prompt state). The agent's updates arrive through
 * `apply`, in order; the user's intents through `prompt`, `cancel`, `answerPermission` and the pickers.
 */
export class Session {
  readonly state = new SessionState();
  /** The agent's questions to the user in this session (elicitation/create), shown in the transcript. */
  readonly elicitations = new PendingElicitations({ added: (r) => this.state.addElicitation(r), changed: (r) => this.state.changedElicitation(r) });
  private turnStart = 0;
  private nextPermissionId = 1;
  private readonly waiting = new Map<number, WaitingAnswer>();
  /** Ends the running turn without the agent's answer (it ignored a cancel). */
  private abandonTurn: (() => void) | undefined;
  private clientReads = false;
  /** A message sent into the running turn (`interject`), its prompt call still open. */
  private interjected: Promise<{ stopReason: StopReason }> | undefined;
  private cancelTimer: ReturnType<typeof setTimeout> | undefined;
  /** Runs after the user message is shown and before the prompt is sent (the edits layer's snapshot); bounded by it. */
  private prepareTurn: (() => Promise<void>) | undefined;

  /** `acp` is undefined for a conversation restored after a window reload until its agent is started again. */
  constructor(
    private acp: AcpConnection | undefined,
    private id: string,
    setup: LoadSessionResult,
    private readonly hooks: SessionHooks = {},
  ) {
    this.applySetup(setup);
  }

  get sessionId(): string {
    return this.id;
  }

  /**
   * Continues this conversation on a new connection (the agent was restarted and the session resumed, loaded or
   * recreated): the transcript and all state stay.
   */
  reattach(acp: AcpConnection, sessionId: string, setup: LoadSessionResult): void {
    this.acp = acp;
    this.id = sessionId;
    this.state.endTurn();
    this.applySetup(setup);
  }

  /** Sets what runs before each prompt is sent; the returned handle removes it. */
  prepareTurnsWith(prepare: () => Promise<void>): { dispose(): void } {
    this.prepareTurn = prepare;
    return {
      dispose: () => {
        if (this.prepareTurn === prepare) this.prepareTurn = undefined;
      },
    };
  }

  /** State the agent returned from session/new, load or resume. */
  applySetup(setup: LoadSessionResult): void {
    if (setup.modes || setup.models) this.state.setModes(setup.modes ?? undefined, setup.models ?? undefined);
    if (setup.configOptions) this.state.setConfigOptions(setup.configOptions);
  }

  apply(update: SessionUpdate): void {
    this.state.apply(update);
  }

  get promptCapabilities() {
    return this.acp?.agent?.promptCapabilities ?? { image: false, audio: false, embeddedContext: false };
  }

  /**
   * Runs one turn. Resolves to the stop reason; an agent error is recorded in the transcript (and rethrown) so the
   * panel can offer Retry. After a cancel, an error from the agent still counts as `cancelled` (DIGEST §8).
   */
  async prompt(blocks: PromptBlock[]): Promise<StopReason> {
    if (this.state.turn !== 'idle') throw new Error(l10n.t('A turn is already running in this session'));
    this.state.addUserMessage(blocks);
    this.turnStart = this.state.entries.length;
    this.state.beginTurn();
    const abandoned = new Promise<'abandoned'>((resolve) => (this.abandonTurn = () => resolve('abandoned')));
    try {
      await this.prepareTurn?.().catch(() => undefined);
      if (this.isCancelling()) {
        // Stopped before the prompt went out: the agent never saw it.
        this.finishTurn('cancelled');
        return 'cancelled';
      }
      const call = this.connection().call('prompt', { sessionId: this.sessionId, prompt: this.withCarryOver(blocks) });
      this.state.carryOver = undefined;
      // If we stop waiting, the agent's late answer (or error) must not surface as an unhandled rejection.
      call.catch(() => undefined);
      let result = await Promise.race([call, abandoned]);
      // A message taken mid-turn: the agent ends this prompt when it picks that one up, whose prompt goes on.
      while (result !== 'abandoned' && result.stopReason !== 'cancelled' && this.interjected) {
        const next = this.interjected;
        this.interjected = undefined;
        result = await Promise.race([next, abandoned]);
      }
      this.interjected = undefined;
      if (result === 'abandoned') {
        this.state.addError(l10n.t('The agent did not stop within {0} s of Stop; Howdah stopped waiting for it.', CANCEL_GRACE_MS / 1000), undefined, false);
        this.finishTurn('cancelled');
        return 'cancelled';
      }
      this.finishTurn(result.stopReason, turnTokens(result));
      return result.stopReason;
    } catch (error) {
      if (this.isCancelling() && !(error instanceof ConnectionClosedError)) {
        this.finishTurn('cancelled');
        return 'cancelled';
      }
      clearTimeout(this.cancelTimer);
      this.abandonTurn = undefined;
      this.interjected = undefined;
      this.endOpenToolCalls('failed');
      this.state.addError(errorMessage(error), errorDetail(error), true);
      this.state.endTurn();
      throw error;
    }
  }

  /** The agent asked Howdah for a file (fs/read_text_file) in this session: it sees unsaved editor text. */
  get readsFilesThroughClient(): boolean {
    return this.clientReads;
  }

  noteClientRead(): void {
    this.clientReads = true;
  }

  /**
   * Whether the agent takes a message while a turn runs, into that turn: claude-agent-acp advertises it as
   * `_meta.claudeCode.promptQueueing` (a second session/prompt joins the running one, which then ends with
   * end_turn while the second goes on).
   */
  get takesMessagesMidTurn(): boolean {
    const meta = this.acp?.agent?._meta as { claudeCode?: { promptQueueing?: unknown } } | undefined;
    return meta?.claudeCode?.promptQueueing === true;
  }

  /**
   * Sends a message into the running turn (Send now, with an agent that takes it): it is shown now, the agent reads
   * it at its next step, and the turn goes on until the agent is done with both. False when the agent does not take
   * messages mid-turn or no turn runs; the caller then stops the turn and sends it after.
   */
  interject(blocks: PromptBlock[]): boolean {
    if (this.state.turn !== 'running' || !this.takesMessagesMidTurn || this.interjected) return false;
    this.state.addUserMessage(blocks);
    const call = this.connection().call('prompt', { sessionId: this.sessionId, prompt: blocks });
    // Settled by the running turn's `prompt`, which waits for it; unanswered after a cancel, it must not surface.
    call.catch(() => undefined);
    this.interjected = call;
    return true;
  }

  /** Cancels the running turn: unfinished tool calls show as cancelled at once, waiting prompts are answered. */
  async cancel(): Promise<void> {
    if (this.state.turn !== 'running') return;
    this.state.cancellingTurn();
    this.endOpenToolCalls('cancelled');
    // A cancelled turn answers its own prompts and questions (DIGEST §8); a later answer from the UI finds nothing waiting.
    this.settleWaiting();
    this.elicitations.settleAll('turn');
    // An agent that ignores session/cancel must not keep the user's turn open: give it a moment, then let go.
    const abandon = this.abandonTurn;
    this.cancelTimer = setTimeout(() => {
      if (this.isCancelling()) abandon?.();
    }, CANCEL_GRACE_MS);
    this.cancelTimer.unref?.();
    await this.connection().cancel(this.sessionId);
  }

  /**
   * A permission request from the agent: becomes a state of the tool call it concerns (created from the request if
   * it was never announced) until the user answers, the turn is cancelled, the agent withdraws it or goes away
   * (`signal`: the request's own). Resolves to an outcome the request allows.
   */

  requestPermission(params: RequestPermissionParams, signal: AbortSignal): Promise<PermissionOutcome> {
    // With no options the only valid answer is `cancelled` (DIGEST §12); a withdrawn request needs no prompt.
    if (params.options.length === 0 || signal.aborted) return Promise.resolve({ outcome: 'cancelled' });
    const call = this.state.toolCallFor(params.toolCall);
    const requestId = this.nextPermissionId++;
    call.permission = { requestId, options: params.options };
    this.state.changedPermission(call.toolCallId, true);
    return new Promise<PermissionOutcome>((resolve) => {
      const onAbort = () => finish({ outcome: 'cancelled' });
      const finish = (outcome: PermissionOutcome) => {
        if (!this.waiting.delete(requestId)) return;
        signal.removeEventListener('abort', onAbort);
        if (call.permission?.requestId === requestId) call.permission = undefined;
        if (outcome.outcome === 'selected') {
          const option = params.options.find((o) => o.optionId === outcome.optionId);
          call.permissionAnswer = { optionId: outcome.optionId, name: option?.name ?? outcome.optionId, kind: option?.kind ?? '' };
          if (option?.kind.startsWith('reject')) call.status = 'rejected';
        } else {
          call.permissionAnswer = 'cancelled';
        }
        this.state.changedPermission(call.toolCallId, false);
        resolve(outcome);
      };
      this.waiting.set(requestId, { resolve: finish });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Permission prompts still waiting on the user. */
  get waitingPermissionCount(): number {
    return this.waiting.size;
  }

  /** The user's choice for the prompt on `toolCallId`. Returns false when no prompt waits there (already answered). */
  answerPermission(toolCallId: string, optionId: string): boolean {
    const call = this.state.toolCalls.get(toolCallId);
    const permission = call?.permission;
    if (!permission || !permission.options.some((o) => o.optionId === optionId)) return false;
    this.waiting.get(permission.requestId)?.resolve({ outcome: 'selected', optionId });
    return true;
  }

  /** Tool calls whose permission prompt waits on the user. */
  waitingPermissions(): ToolCallState[] {
    return [...this.state.toolCalls.values()].filter((c) => c.permission);
  }

  async setMode(modeId: string): Promise<void> {
    await this.connection().call('setMode', { sessionId: this.sessionId, modeId });
    this.state.setCurrentMode(modeId);
    this.hooks.onUserChoice?.('mode', modeId);
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const params =
      typeof value === 'boolean'
        ? { sessionId: this.sessionId, configId, type: 'boolean' as const, value }
        : { sessionId: this.sessionId, configId, value };
    const result = await this.connection().call('setConfigOption', params);
    this.state.setConfigOptions(result.configOptions);
    this.hooks.onUserChoice?.(configId, value);
  }

  /** Legacy model switch for agents that answer `models` and have no model config option (DIGEST §24). */
  async setModel(modelId: string): Promise<void> {
    await this.connection().call('setModel', { sessionId: this.sessionId, modelId });
    this.state.setCurrentModel(modelId);
    this.hooks.onUserChoice?.('model', modelId);
  }

  /**
   * The conversation this session continues goes first, before the user's blocks: as an embedded resource where the
   * agent takes embedded context, else as text.
   */
  private withCarryOver(blocks: PromptBlock[]): PromptBlock[] {
    const text = this.state.carryOver;
    if (text === undefined) return blocks;
    const context: PromptBlock = this.promptCapabilities.embeddedContext
      ? { type: 'resource', resource: { uri: `howdah://conversation/${encodeURIComponent(this.sessionId)}`, mimeType: 'text/markdown', text } }
      : { type: 'text', text: `${text}\n\n---\n\n` };
    return [context, ...blocks];
  }

  /** The agent is gone: prompts still waiting are over. */
  dispose(): void {
    this.settleWaiting();
    this.elicitations.settleAll('closed');
  }

  private settleWaiting(): void {
    for (const [, waiting] of [...this.waiting]) waiting.resolve({ outcome: 'cancelled' });
  }

  private connection(): AcpConnection {
    if (!this.acp) throw new Error(l10n.t('The agent is not running for this conversation'));
    return this.acp;
  }

  /** Read through a method: the turn changes while `prompt` awaits, which narrowing cannot see. */
  private isCancelling(): boolean {
    return this.state.turn === 'cancelling';
  }

  private finishTurn(stopReason: StopReason, tokens?: TurnTokens): void {
    clearTimeout(this.cancelTimer);
    this.abandonTurn = undefined;
    if (stopReason === 'cancelled') this.endOpenToolCalls('cancelled');
    this.state.addTurnEnd(stopReason, tokens);
    this.state.endTurn(stopReason);
  }

  private endOpenToolCalls(status: 'cancelled' | 'failed'): void {
    for (let i = this.turnStart; i < this.state.entries.length; i++) {
      const entry = this.state.entries[i];
      if (entry.kind !== 'tool') continue;
      const call = this.state.toolCalls.get(entry.toolCallId);
      if (call && (call.status === 'pending' || call.status === 'in_progress')) {
        call.status = status;
        this.state.changedToolCall(call.toolCallId);
      }
    }
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function errorDetail(error: unknown): string | undefined {
  if (error instanceof RpcError && error.data !== undefined) {
    try {
      return JSON.stringify(error.data, null, 2);
    } catch {
      // Nested too deep for JSON.stringify (a hostile agent): the message still says what failed.
      return l10n.t('(the error data is too deeply nested to show)');
    }
  }
  if (error instanceof ConnectionClosedError) return error.stderrTail.slice(-20).join('\n') || undefined;
  return undefined;
}
