import * as vscode from 'vscode';
import type { PromptBlock } from '../acp/schema/agentMethods';
import { conversationContext } from '../session/conversationContext';
import { PERSISTED_VERSION } from '../session/persistence';
import { pickAgent } from './agentPicker';
import type { BranchIndex } from './branchIndex';
import { newKey, type ManagedSession } from './managedSession';
import type { SessionManager } from './sessionManager';

/**
 * A conversation continued in a new session, carrying it as context with the new session's first prompt
 * (src/session/conversationContext.ts): handed over to another agent ("Continue with Another Agent…"), or forked
 * from one of its messages ("Fork from here"). The conversation it came from stays open in its own tab, and pending
 * changes stay pending: they belong to the workspace, not to a session.
 */
/** "Restore files to before this message", from the edits layer: the files it would touch, and the restore (asks first). */
export interface CheckpointAccess {
  checkpointFiles(key: string, turnIndex: number): string[];
  restoreCheckpoint(key: string, turnIndex: number): Promise<boolean>;
}

export class Continuations {
  constructor(
    private readonly manager: SessionManager,
    private readonly checkpoints?: CheckpointAccess,
    private readonly branches?: BranchIndex,
  ) {}

  /** From session `fromKey` (default: the active one) to `agentId` (default: asked). Undefined when nothing happened. */
  async handOff(fromKey?: string, agentId?: string): Promise<ManagedSession | undefined> {
    const from = fromKey ? this.manager.get(fromKey) : this.manager.active;
    if (!from) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: open a conversation first; it is what the other agent continues.'));
      return undefined;
    }
    const target =
      agentId ?? (await pickAgent(this.manager.registry, { title: vscode.l10n.t('Howdah: Continue "{0}" with…', from.session.state.info.title ?? vscode.l10n.t('this conversation')), makeDefault: false }));
    if (!target) return undefined;
    return this.continueIn(from, target, { end: from.session.state.entries.length, title: vscode.l10n.t('Continued from a copy of the conversation with {0}', from.agentName) });
  }

  /**
   * A new conversation with the same agent (and its mode and options) that continues from entry `entryId` of
   * `fromKey`: the transcript up to and including it is copied into the new tab, the agent gets it as context. Files
   * are not touched.
   */
  async fork(fromKey: string, entryId: number): Promise<ManagedSession | undefined> {
    const from = this.manager.get(fromKey);
    const index = from?.session.state.entries.findIndex((e) => e.id === entryId) ?? -1;
    if (!from || index < 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: that message is no longer in this conversation.'));
      return undefined;
    }
    const forked = await this.forkWithAgent(from, index);
    if (forked) return forked;
    const next = await this.continueIn(from, from.agentId, { end: index + 1, title: vscode.l10n.t('Continued from a copy of the conversation up to here'), copy: true });
    if (next) await sameChoices(from, next);
    return next;
  }

  /**
   * A fork at the end of the conversation, by the agent itself (`session/fork`, unstable), when it can also resume
   * or load a session: it forks on the running process, and a new process of its own continues the fork, so each
   * conversation keeps its own process. Undefined (the caller carries the conversation instead) when the agent cannot,
   * refuses, or its fork does not open.
   */
  private async forkWithAgent(from: ManagedSession, index: number): Promise<ManagedSession | undefined> {
    const entries = from.session.state.entries;
    const running = this.manager.probes.runningAgent(from.key);
    const acp = running?.acp;
    const caps = running?.init.agentCapabilities;
    const atEnd = !entries.slice(index + 1).some((e) => e.kind === 'message' || e.kind === 'tool');
    if (!acp?.supports('forkSession') || !(caps?.loadSession || caps?.sessionCapabilities.resume) || !atEnd || from.session.state.turn !== 'idle') return undefined;
    const result = await acp.call('forkSession', { sessionId: from.session.sessionId, cwd: from.cwd, mcpServers: [] }).catch(() => undefined);
    if (!result) return undefined;
    const source = from.session.state;
    const copied = entries.map((e) => ({ ...e }));
    const toolCalls = copied.flatMap((e) => (e.kind === 'tool' && source.toolCalls.get(e.toolCallId) ? [source.toolCalls.get(e.toolCallId)!] : []));
    const saved = {
      version: PERSISTED_VERSION,
      key: newKey(),
      agentId: from.agentId,
      agentName: from.agentName,
      sessionId: result.sessionId,
      cwd: from.cwd,
      title: source.info.title ?? undefined,
      updatedAt: new Date().toISOString(),
      entries: copied,
      toolCalls,
      plan: [],
    };
    const next = await this.manager.openPast({ agentId: from.agentId, sessionId: result.sessionId, cwd: from.cwd, saved }).catch(() => undefined);
    // The fork serves no one in the process it was made in.
    if (acp.supports('closeSession')) void acp.call('closeSession', { sessionId: result.sessionId }).catch(() => undefined);
    if (!next || !this.manager.probes.runningAgent(next.key)) {
      if (next) await this.manager.close(next.key);
      return undefined;
    }
    next.session.state.addNote(vscode.l10n.t('Forked by the agent from here'), vscode.l10n.t('{0} made this conversation from its own (session/fork): it knows everything up to here. The conversation this came from stays open in its own tab; pending changes stay pending.', from.agentName));
    return next;
  }

  /**
   * "Edit message": the files go back to before that message (the checkpoint, after the user confirms the list), then
   * the conversation continues from there in a new session with the same agent, mode and options: the transcript
   * before that message copied, carried to the agent as context, then `text` sent. The agent never sees the turns
   * after it; the conversation they are in is kept as the message's other branch ("Branch 1 of 2"). Undefined when
   * the user declined or nothing could start.
   */
  async editAndResend(fromKey: string, entryId: number, text: string): Promise<ManagedSession | undefined> {
    return this.resend(fromKey, entryId, (blocks) => [{ type: 'text', text }, ...blocks.filter((b) => b.type !== 'text')], text);
  }

  /**
   * "Regenerate" on an agent answer: the user message it answers, sent again unchanged (its attachments too), the same
   * way as an edit: files back to before it, a new branch from there.
   */
  async regenerate(fromKey: string, answerEntryId: number): Promise<ManagedSession | undefined> {
    const entries = this.manager.get(fromKey)?.session.state.entries ?? [];
    const answer = entries.findIndex((e) => e.id === answerEntryId);
    const asked = answer < 0 ? undefined : entries.slice(0, answer).reverse().find((e) => e.kind === 'message' && e.role === 'user');
    if (!asked || asked.kind !== 'message') {
      void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: there is no message of yours before that answer to send again.'));
      return undefined;
    }
    return this.resend(fromKey, asked.id, (blocks) => blocks, asked.text);
  }

  /** Continues from before user message `entryId`, sending `blocksOf(its blocks)` (`text` is the new text shown). */
  private async resend(fromKey: string, entryId: number, blocksOf: (original: PromptBlock[]) => PromptBlock[], text: string): Promise<ManagedSession | undefined> {
    const from = this.manager.get(fromKey);
    const entries = from?.session.state.entries ?? [];
    const index = entries.findIndex((e) => e.id === entryId && e.kind === 'message' && e.role === 'user');
    const original = entries[index];
    if (!from || index < 0 || original?.kind !== 'message' || text.trim() === '') {
      void vscode.window.showWarningMessage(vscode.l10n.t('Howdah: that message is no longer in this conversation.'));
      return undefined;
    }
    if (from.session.state.turn !== 'idle') {
      void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: stop the running turn before editing an earlier message.'));
      return undefined;
    }
    const turnIndex = entries.slice(0, index).filter((e) => e.kind === 'message' && e.role === 'user').length;
    if (this.checkpoints && this.checkpoints.checkpointFiles(fromKey, turnIndex).length > 0 && !(await this.checkpoints.restoreCheckpoint(fromKey, turnIndex))) return undefined;
    const next = await this.continueIn(from, from.agentId, { end: index, title: vscode.l10n.t('Continued from a copy of the conversation up to here'), copy: true, branch: !!this.branches });
    if (!next) return undefined;
    await sameChoices(from, next);
    // The new conversation is a branch of this message: it takes the old one's place, which stays a branch away.
    if (this.branches) {
      await this.branches.record(next.key, fromKey, turnIndex);
      await this.manager.putInPlaceOf(fromKey, next.key);
    }
    // Errors are said in the new conversation's transcript, with Retry.
    // Only what a prompt can carry: a block of a kind we do not know (from an agent's replay) is left out.
    const kept = original.blocks.filter((b): b is PromptBlock => b.type !== 'unknown');
    const blocks = blocksOf([{ type: 'text', text: original.text }, ...kept]);
    await this.manager.prompt(next.key, blocks).catch(() => undefined);
    return next;
  }

  private async continueIn(from: ManagedSession, agentId: string, options: { end: number; title: string; copy?: boolean; branch?: boolean }): Promise<ManagedSession | undefined> {
    const source = from.session.state;
    const context = conversationContext(source, { fromAgent: from.agentName, end: options.end });
    // The manager says why when it cannot start the agent.
    const next = await this.manager.newSession(agentId).catch(() => undefined);
    if (!next) return undefined;
    const state = next.session.state;
    if (options.copy) {
      const entries = source.entries.slice(0, options.end).map((e) => ({ ...e }));
      const toolCalls = entries.flatMap((e) => (e.kind === 'tool' && source.toolCalls.get(e.toolCallId) ? [source.toolCalls.get(e.toolCallId)!] : []));
      state.restore({ entries, toolCalls, plan: [], title: source.info.title });
    }
    const left = context.omitted ? (' ' + vscode.l10n.t('(the {0} oldest left out, to stay within what an agent can take in)', context.omitted)) : '';
    const carried = context.included === 0 ? vscode.l10n.t('There is nothing before this point for the agent to know.') : vscode.l10n.t('{0} messages and tool calls{1} go to {2} with your next message.', context.included, left, next.agentName);
    // Nothing said yet (a fork or edit of the first message): nothing to carry.
    if (context.included > 0) state.carryOver = context.text;
    const kept = options.branch ? vscode.l10n.t('The conversation as it was is kept: Previous branch on the message shows it') : vscode.l10n.t('The conversation this came from stays open in its own tab');
    state.addNote(options.title, vscode.l10n.t('{0} {1}; pending changes stay pending.', carried, kept));
    return next;
  }
}

/** The fork starts with the mode and options its source had (the user chose them for this work). */
async function sameChoices(from: ManagedSession, next: ManagedSession): Promise<void> {
  const source = from.session.state;
  const target = next.session.state;
  try {
    for (const option of source.configOptions) {
      const mine = target.configOptions.find((o) => o.id === option.id);
      if (mine && mine.currentValue !== option.currentValue) await next.session.setConfigOption(option.id, option.currentValue as string | boolean);
    }
    if (source.modes && target.modes && source.modes.currentModeId !== target.modes.currentModeId) await next.session.setMode(source.modes.currentModeId);
  } catch {
    // The agent refused one of them: the fork goes on with its defaults, which the pickers show.
  }
}
