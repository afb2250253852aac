import * as vscode from 'vscode';
import type { GateSources } from '../panel/panelGate';
import { makeDefaultAgent } from './agentPicker';
import type { NewSessionFlow } from './newSessionFlow';
import type { SessionManager } from './sessionManager';

/**
 * The panel's gate over the session manager: the open sign-in question, workspace trust, why an agent could not
 * start, and — with no session and no default agent — every known agent, installed or not. Its buttons sign in,
 * start a session with the chosen agent (making it the default, as the Quick Pick does), install it from the registry
 * (then start it), open docs or open the trust editor; a start error's retry, show the agent's log, open the agents' settings or dismiss it.
 */
export function agentGate(manager: SessionManager, newSession: NewSessionFlow): GateSources & vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const subscriptions = [
    manager.onDidChange(() => changed.fire()),
    manager.registry.onDidChange(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('howdah.agents') || e.affectsConfiguration('howdah.defaultAgent')) changed.fire();
    }),
  ];
  const agent = (id: string) => manager.registry.find(id);
  const chooseAgent = async (agentId: string) => {
    if (!agent(agentId)) return;
    await makeDefaultAgent(agentId);
    // Chosen in the panel: the page has put the caret in the prompt already (see `NewSessionOptions.focus`).
    await newSession.start(agentId, { focus: false });
  };
  return {
    onDidChange: changed.event,
    async state() {
      const signIn = manager.signInRequest;
      const trusted = manager.trust.isTrusted;
      const mustChoose = !signIn && trusted && manager.list().length === 0 && !manager.registry.hasDefault();
      const startFailure = manager.startFailure;
      return { question: manager.startQuestions.current, slowStart: manager.slowStarts.current, signIn, trusted, startFailure, availability: mustChoose ? await manager.registry.availability() : undefined };
    },
    chooseSignIn: (choiceId) => manager.chooseSignIn(choiceId),
    cancelStart: (id) => manager.slowStarts.cancel(id),
    chooseAgent,
    async installAgent(agentId) {
      // One click: installed (or updated), then started as the chosen agent, unless a session already runs.
      const wasInstalled = !!agent(agentId)?.installed;
      if (!(await manager.registry.install(agentId))) return;
      if (!wasInstalled && manager.list().length === 0) await chooseAgent(agentId);
    },
    async openDocs(agentId) {
      const known = agent(agentId);
      const docs = known?.catalog?.docs ?? known?.registry?.website ?? known?.registry?.repository;
      if (docs) await vscode.env.openExternal(vscode.Uri.parse(docs));
    },
    async signInAgent(agentId) {
      const known = agent(agentId);
      if (known) await manager.registry.signIns.signIn(known);
    },
    async manageTrust() {
      await vscode.commands.executeCommand('workbench.trust.manage');
    },
    async startErrorAction(id, action) {
      const failure = manager.startFailure;
      if (failure?.id !== id) return;
      switch (action) {
        case 'retry':
        case 'signIn':
          // Starting again makes the agent ask for the sign-in, which the panel then shows.
          return manager.retryStart(id);
        case 'showLog':
          return manager.probes.showAgentLog(failure.agentId);
        case 'editSettings':
          await vscode.commands.executeCommand('workbench.action.openSettings', 'howdah.agents');
          return;
        case 'dismiss':
          return manager.dismissStartFailure(id);
      }
    },
    dispose() {
      for (const s of subscriptions) s.dispose();
      changed.dispose();
    },
  };
}
