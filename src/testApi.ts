import type { SessionManager } from './agents/sessionManager';
import type { HowdahApi } from './api';
import type { ChatPanelProbe } from './panel/registerChatPanel';

/** The API `activate` returns, over the session manager and the chat panel. */
export function createApi(manager: SessionManager, panel: ChatPanelProbe): HowdahApi {
  const session = (key: string) => {
    const managed = manager.get(key);
    if (!managed) throw new Error(`No session ${key}`);
    return managed;
  };
  return {
    newSession: async (agentId) => (await manager.newSession(agentId)).key,
    prompt: (key, text) => session(key).session.prompt([{ type: 'text', text }]),
    cancel: (key) => session(key).session.cancel(),
    snapshot: (key) => {
      const { session: s, status, agentName, exitReason } = session(key);
      const state = s.state;
      return JSON.parse(
        JSON.stringify({
          status,
          exitReason,
          agentName,
          sessionId: s.sessionId,
          turn: state.turn,
          entries: state.entries,
          toolCalls: Object.fromEntries(state.toolCalls),
          plan: state.plan,
          commands: state.commands,
          modes: state.modes,
          models: state.models,
          configOptions: state.configOptions,
          info: state.info,
          usage: state.usage,
        }),
      );
    },
    agentPid: (key) => manager.agentPid(key),
    agentLog: (key) => manager.agentLogLines(key),
    answerPermission: (key, toolCallId, optionId) => session(key).session.answerPermission(toolCallId, optionId),
    sessionKeys: () => manager.list().map((m) => m.key),
    stopAll: () => manager.stopAll(),
    signInRequest: () => manager.signInRequest,
    chooseSignIn: (choiceId, key) => manager.chooseSignIn(choiceId, key),
    agentHistory: () => manager.agentHistory(),
    openPast: async (entry) => (await manager.openPast(entry))?.key,
    restart: (key) => manager.restart(session(key).key),
    protocolProblems: (key) => {
      const recorder = manager.protocolOf(session(key).key).recorder;
      return (recorder?.timeline() ?? []).flatMap((e) => e.problems.map((p) => `${e.method}: ${p}`));
    },
    setActive: (key) => manager.setActive(session(key).key),
    simulateUntrustedWorkspace: (untrusted) => manager.trust.simulateUntrusted(untrusted),
    panelGate: () => (panel.gate ? JSON.parse(JSON.stringify(panel.gate)) : undefined),
    panelIntent: (message) => panel.intent(message),
  };
}
