import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { BranchIndex } from './agents/branchIndex';
import { agentHistory, pastSessionGroups } from './agents/historyPicker';
import type { SessionManager } from './agents/sessionManager';
import type { SessionStore } from './agents/sessionStore';
import type { HowdahApi, ResourceCounts } from './api';
import { liveScopeCount } from './base/disposables';
import { emitterListenerCount } from './base/event';
import type { ReviewComments } from './edits/reviewComments';
import type { ChatPanelProbe } from './panel/registerChatPanel';

/** The API `activate` returns, over the session manager and the chat panel. */
export function createApi(manager: SessionManager, panel: ChatPanelProbe, extras: { branches?: BranchIndex; reviews?: ReviewComments; store?: SessionStore } = {}): HowdahApi {
  const { branches, reviews, store } = extras;
  const session = (key: string) => {
    const managed = manager.get(key);
    if (!managed) throw new Error(`No session ${key}`);
    return managed;
  };
  return {
    newSession: async (agentId) => (await manager.newSession(agentId)).key,
    // The panel's paths: a prompt to a session whose agent is down starts it again first, as Send does.
    prompt: (key, text) => manager.prompt(session(key).key, [{ type: 'text', text }]),
    cancel: (key) => manager.cancel(session(key).key),
    snapshot: (key) => {
      const { session: s, status, agentName, exitReason, lifecycle } = session(key);
      const state = s.state;
      return JSON.parse(
        JSON.stringify({
          status,
          lifecycle: lifecycle.state,
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
          queue: state.queue.items,
        }),
      );
    },
    agentPid: (key) => manager.probes.agentPid(key),
    agentLog: (key) => manager.probes.agentLogLines(key),
    answerPermission: (key, toolCallId, optionId) => session(key).session.answerPermission(toolCallId, optionId),
    sessionKeys: () => manager.list().map((m) => m.key),
    stopAll: () => manager.stopAll(),
    signInRequest: () => manager.signInRequest,
    chooseSignIn: (choiceId, key) => manager.chooseSignIn(choiceId, key),
    agentHistory: () => agentHistory(manager),
    pastSessions: async (options = {}) => {
      if (!store) throw new Error('no session store in this window');
      return pastSessionGroups(manager, store, options);
    },
    morePastSessions: async (agentId, cursor) => {
      const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      return cwd ? manager.histories.more(agentId, cwd, cursor) : undefined;
    },
    agentLogOf: (agentId) => manager.probes.agentLogLinesOf(agentId),
    openPast: async (entry) => (await manager.openPast(entry))?.key,
    restart: (key) => manager.restart(session(key).key),
    protocolProblems: (key) => {
      const recorder = manager.probes.protocolOf(session(key).key).recorder;
      return (recorder?.timeline() ?? []).flatMap((e) => e.problems.map((p) => `${e.method}: ${p}`));
    },
    setActive: (key) => manager.setActive(session(key).key),
    simulateUntrustedWorkspace: (untrusted) => manager.trust.simulateUntrusted(untrusted),
    panelGate: () => (panel.gate ? JSON.parse(JSON.stringify(panel.gate)) : undefined),
    panelIntent: (message) => panel.intent(message),
    panelAttachments: () => JSON.parse(JSON.stringify(panel.attached)),
    panelUnsavedNotice: () => panel.unsavedNotice,
    panelHeader: () => JSON.parse(JSON.stringify(panel.header)),
    recordOpenedLinks: (on) => panel.links.record(on),
    openedLinks: () => [...panel.links.opened],
    close: (key) => manager.close(session(key).key),
    delete: (key) => manager.delete(session(key).key),
    resources: () => resourceCounts(manager),
    reviewComment: (fsPath, startLine, endLine, text) => {
      reviews?.addComment(vscode.Uri.file(fsPath), new vscode.Range(startLine, 0, endLine, 0), text);
    },
    sendReviewComments: async () => (await reviews?.send()) ?? false,
    reviewThreads: () => reviews?.saved() ?? [],
    branches: (key) => [...(branches?.positionsIn(key) ?? new Map())].map(([turn, p]) => ({ turn, keys: [...p.keys], index: p.index })),
    agents: async () =>
      (await manager.registry.availability()).map(({ agent, installed, update }) => ({
        id: agent.id,
        name: agent.name,
        source: agent.source,
        ...(agent.registry ? { registryVersion: agent.registry.version } : {}),
        ...(agent.installed ? { installedVersion: agent.installed.version } : {}),
        installed,
        ...(update ? { update } : {}),
      })),
    refreshRegistry: async () => (await manager.registry.sources?.registry.refresh(true)) ?? 'no registry',
    installAgent: async (agentId, options = {}) => {
      const agent = manager.registry.find(agentId);
      const installs = manager.registry.sources?.installs;
      if (!agent?.registry || !installs) return { ok: false, failure: 'unknown', message: `${agentId} is not a registry agent` };
      const controller = new AbortController();
      try {
        const installed = await installs.installOrThrow(agent.registry, controller.signal, (step) => {
          if (options.cancelAfterBytes !== undefined && (step.received ?? 0) >= options.cancelAfterBytes) controller.abort();
        });
        return { ok: true, version: installed.version, dir: installed.dir, executable: installed.executable };
      } catch (error) {
        return { ok: false, failure: (error as { failure?: string }).failure ?? 'error', message: error instanceof Error ? error.message : String(error) };
      }
    },
    removeAgent: (agentId) => manager.registry.remove(agentId),
    agentStorage: () => manager.registry.sources?.installs.root,
    addAccount: async (baseId, label) => {
      const accounts = manager.registry.sources?.accounts;
      if (!accounts) throw new Error('no accounts');
      const record = await accounts.add(baseId, label);
      const agent = manager.registry.find(record.id);
      return { id: record.id, name: agent?.name ?? '', folder: accounts.folderOf(record), env: { ...(agent?.env ?? {}) } };
    },
    sessionAgentVersion: (key) => manager.probes.installedVersionOf(session(key).key),
  };
}

let collect: (() => void) | undefined;

/** Counts after a full collection; `gc` is made reachable the first time (the host does not expose it). */
function resourceCounts(manager: SessionManager): ResourceCounts {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
  collect();
  return { sessions: manager.list().length, listeners: emitterListenerCount(), scopes: liveScopeCount(), heapUsed: process.memoryUsage().heapUsed };
}
