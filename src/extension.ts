import './localization';
import * as vscode from 'vscode';
import { agentGate } from './agents/agentGate';
import { BranchIndex } from './agents/branchIndex';
import { registerAgentSources } from './agents/registerAgentSources';
import { Continuations } from './agents/continuations';
import { reviewSender } from './agents/reviewSender';
import { ReviewComments } from './edits/reviewComments';
import { NewSessionFlow } from './agents/newSessionFlow';
import { registerSessions } from './agents/registerSessions';
import { registerStatusBar } from './agents/statusBar';
import type { HowdahApi } from './api';
import { registerCommands } from './commands';
import { registerEdits } from './edits/registerEdits';
import { registerEditorContext } from './editorContext/editorContextService';
import { registerChatPanel } from './panel/registerChatPanel';
import { registerTerminals } from './terminals/agentTerminals';
import { registerWalkthrough } from './walkthrough/walkthrough';
import type { TerminalOutputModel } from './terminals/terminalOutputModel';
import { createApi } from './testApi';

let shutdown: (() => Promise<void>) | undefined;

/**
 * Builds the object graph: a flat list of registrations, each owning its disposables through `context`, each built
 * after what it is given.
 */
export function activate(context: vscode.ExtensionContext): HowdahApi {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const terminals = registerTerminals(context);
  const edits = registerEdits(context);
  const agents = registerAgentSources(context);
  const editorContext = registerEditorContext(context);
  const { manager, store, settled } = registerSessions(context, version, { terminals, edits, editorContext, agents });
  registerWalkthrough(context, { onDidChange: settled.event, list: () => manager.list() }, edits.onDidReachMilestone);
  const newSession = new NewSessionFlow(manager);
  const branches = new BranchIndex(manager, store);
  context.subscriptions.push(branches);
  const continuations = new Continuations(manager, edits, branches);
  registerCommands(context, { manager, store, newSession, continuations, edits, version });
  const reviews = new ReviewComments(edits.pending, edits.rounds, context.workspaceState, reviewSender(manager));
  context.subscriptions.push(reviews);
  registerStatusBar(context, manager);
  const gate = agentGate(manager, newSession);
  context.subscriptions.push(gate);
  const panel = registerChatPanel(context, manager, {
    starter: newSession,
    checkpoints: edits,
    reviews: edits,
    forks: continuations,
    branches,
    terminalOutputs: (m) => terminals.outputModel(m.session.state),
    openTerminal: (id, model) => terminals.open(id, model as TerminalOutputModel),
    gate,
  });
  shutdown = async () => {
    await edits.flush();
    await manager.shutdown();
  };
  // What activation costs, for `npm run bench -- stream` and for anyone wondering why a window starts slowly: the CPU
  // the extension host spent meanwhile (all its threads) says whether a slow one worked or waited for a core.
  const cpu = process.cpuUsage(cpuAtStart);
  panel.info(`activated in ${(performance.now() - started).toFixed(1)} ms (${((cpu.user + cpu.system) / 1000).toFixed(1)} ms of CPU); extension host heap ${(process.memoryUsage().heapUsed / 1048576).toFixed(1)} MiB`);
  return createApi(manager, panel, { branches, reviews, store });
}

/** Saves every conversation and stops every agent before the extension host goes away. */
export function deactivate(): Promise<void> | undefined {
  return shutdown?.();
}
