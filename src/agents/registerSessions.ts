import * as vscode from 'vscode';
import { registerTraceSetting } from './agentLauncher';
import { SessionManager } from './sessionManager';
import { SessionStore } from './sessionStore';
import type { SessionManagerOptions } from './sessionManager';
import { showCrashNotices } from './crashNotice';
import { trackCanSignOut } from './signOut';
import { AfterTask } from '../base/event';

/**
 * The session manager with its persistence: conversations open when the window closed come back (transcript shown at
 * once, agent started again on the next message), and the list of open ones is kept up to date.
 */
export function registerSessions(
  context: vscode.ExtensionContext,
  version: string,
  options: Omit<SessionManagerOptions, 'store'> = {},
): { manager: SessionManager; store: SessionStore; settled: AfterTask } {
  registerTraceSetting(context);
  const store = new SessionStore(context.storageUri);
  const manager = new SessionManager(version, { ...options, store });
  // What follows the session list without being on screen goes after the panel's update (a new session's first one).
  const settled = new AfterTask(manager.onDidChange);
  context.subscriptions.push(manager, store, showCrashNotices(manager), settled);
  // Until the saved conversations are back, a change (a session started meanwhile) must not overwrite their list.
  let restored = false;
  // Written only when the list or the one in front changed: the manager also fires for each turn of each session, and
  // a write in flight when the window reloads is a write that may not land.
  let recorded = '';
  const recordOpen = () => {
    const keys = manager.list().map((m) => m.key);
    const active = manager.active?.key;
    const now = JSON.stringify({ keys, active });
    if (now === recorded) return;
    recorded = now;
    void store.setOpenKeys(keys, active);
  };
  context.subscriptions.push(settled.event(() => restored && recordOpen()));
  // The chat view's "Continue with Another Agent" shows only when there is a conversation to continue.
  let hadSession = false;
  const updateHasSession = () => {
    const has = manager.list().length > 0;
    if (has !== hadSession) void vscode.commands.executeCommand('setContext', 'howdah.hasSession', (hadSession = has));
  };
  context.subscriptions.push(settled.event(updateHasSession));
  // "Howdah: Sign Out" is offered only when the agent in front can sign out.
  context.subscriptions.push(trackCanSignOut(settled.event, () => manager.canSignOut));
  void (async () => {
    try {
      const open = await store.openKeys(context.workspaceState);
      if (open.keys.length === 0) return;
      const saved = new Map((await store.list()).map((s) => [s.key, s]));
      // In the order they were open, the one in front shown again.
      manager.restoreSaved(open.keys.flatMap((k) => saved.get(k) ?? []), open.active);
    } finally {
      restored = true;
      if (manager.list().length > 0) recordOpen();
    }
  })();
  return { manager, store, settled };
}
