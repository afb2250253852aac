import { ErrorCode, RpcError } from '../acp/errors';
import { withDirectories } from '../session/directories';
import type { LoadSessionResult, McpServer } from '../acp/schema/agentMethods';
import type { Managed, Started } from './managedSession';
import { conversationContext } from '../session/conversationContext';
import type { SlowStarts } from './slowStarts';
import { during } from './startFailure';
import * as l10n from '@vscode/l10n';

/**
 * The session call of a restart on connection `s`: `session/load` when there is no transcript here yet (its replay
 * is the transcript), else `session/resume`, else `session/load` with its replay dropped, else — or when the agent
 * refuses both — a new session, said in the transcript, which gets the conversation with the next message.
 */
export async function continueSession(managed: Managed, s: Started, empty: boolean, mcpServers: McpServer[], slow: SlowStarts): Promise<{ sessionId: string; setup: LoadSessionResult }> {
  const { acp } = s.connection;
  const sessionId = managed.session.sessionId;
  // The session's own roots (granted folders included), so the agent is told exactly where it may work.
  const setup = <P extends { cwd: string }>(params: P) => withDirectories(params, acp.agent, managed.edits?.files.sandbox.roots ?? s.router.roots);
  let refusal: string | undefined;
  try {
    const load = () => during('session/load', s.connection, () => slow.run(managed.agentName, 'session/load', (signal) => acp.call('loadSession', setup({ sessionId, cwd: managed.cwd, mcpServers }), signal)));
    if (empty && acp.supports('loadSession')) {
      s.router.attach(managed.session, managed.edits?.files);
      return { sessionId, setup: await load() };
    }
    if (acp.supports('resumeSession')) return { sessionId, setup: await during('session/resume', s.connection, () => slow.run(managed.agentName, 'session/resume', (signal) => acp.call('resumeSession', setup({ sessionId, cwd: managed.cwd, mcpServers }), signal))) };
    if (acp.supports('loadSession')) {
      s.router.dropUpdatesFor(sessionId);
      try {
        return { sessionId, setup: await load() };
      } finally {
        s.router.dropUpdatesFor(undefined);
      }
    }
  } catch (error) {
    // Signing in is retried by the caller; an agent that no longer knows the session gets a new one.
    if (!(error instanceof RpcError) || error.code === ErrorCode.authRequired) throw error;
    refusal = error.message;
    managed.log.warn(`${managed.agentName} could not continue session ${sessionId}: ${error.message}`);
  }
  const created = await during('session/new', s.connection, () => slow.run(managed.agentName, 'session/new', (signal) => acp.call('newSession', setup({ cwd: managed.cwd, mcpServers }), signal)));
  // The agent forgot it, Howdah did not: the transcript goes to it with the next message, as a hand-over's does.
  const { state } = managed.session;
  const context = conversationContext(state, { fromAgent: managed.agentName });
  if (context.included > 0 && state.carryOver === undefined) state.carryOver = context.text;
  const then = context.included > 0 ? l10n.t('the conversation so far ({0} messages and tool calls) goes to it with your next message', context.included) : l10n.t('there was nothing to remember yet');
  state.addError(
    refusal
      ? l10n.t('{0} could not continue this conversation ({1}): this is a new conversation for the agent; {2}.', managed.agentName, refusal, then)
      : l10n.t('{0} cannot resume sessions: this is a new conversation for the agent; {1}.', managed.agentName, then),
    undefined,
    false,
  );
  return { sessionId: created.sessionId, setup: created };
}
