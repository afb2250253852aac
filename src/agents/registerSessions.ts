import * as vscode from 'vscode';
import { registerTraceSetting } from './agentLauncher';
import { SessionManager } from './sessionManager';
import { SessionStore } from './sessionStore';
import type { TerminalsService } from '../terminals/agentTerminals';
import type { EditReview } from '../edits/registerEdits';

/**
 * The session manager with its persistence: conversations open when the window closed come back (transcript shown at
 * once, agent started again on the next message), and the list of open ones is kept up to date.
 */
export function registerSessions(context: vscode.ExtensionContext, version: string, terminals?: TerminalsService, edits?: EditReview): { manager: SessionManager; store: SessionStore } {
  registerTraceSetting(context);
  const store = new SessionStore(context.storageUri);
  const manager = new SessionManager(version, store, terminals, edits);
  context.subscriptions.push(manager, store);
  context.subscriptions.push(
    manager.onDidChange(() => void store.setOpenKeys(context.workspaceState, manager.list().map((m) => m.key), manager.active?.key)),
  );
  void (async () => {
    const open = store.openKeys(context.workspaceState);
    if (open.keys.length === 0) return;
    const saved = new Map((await store.list()).map((s) => [s.key, s]));
    // In the order they were open, the one in front shown again.
    manager.restoreSaved(open.keys.flatMap((k) => saved.get(k) ?? []), open.active);
  })();
  return { manager, store };
}
