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
    manager.onDidChange(() => void store.setOpenKeys(context.workspaceState, manager.list().map((m) => m.key))),
  );
  void (async () => {
    const open = new Set(await store.openKeys(context.workspaceState));
    if (open.size === 0) return;
    const saved = (await store.list()).filter((s) => open.has(s.key));
    manager.restoreSaved(saved.reverse());
  })();
  return { manager, store };
}
