import * as vscode from 'vscode';
import { addAccount, addAgent, pickAgent, removeAgent } from './agents/agentPicker';
import { exportDebugBundle } from './agents/debugBundle';
import { showProtocolLog } from './agents/protocolLogView';
import { pickPastSession } from './agents/historyPicker';
import type { Continuations } from './agents/continuations';
import type { NewSessionFlow } from './agents/newSessionFlow';
import type { SessionManager } from './agents/sessionManager';
import type { SessionStore } from './agents/sessionStore';
import type { EditsLayer } from './edits/editsLayer';

export interface CommandServices {
  readonly manager: SessionManager;
  readonly store: SessionStore;
  readonly newSession: NewSessionFlow;
  readonly continuations: Continuations;
  /** Which sessions have file access, and the folders granted them. */
  readonly edits: Pick<EditsLayer, 'follows' | 'addRoot'>;
  readonly version: string;
}

/** Every command Howdah contributes, in one table: id → handler. Titles live in package.json. */
export function registerCommands(context: vscode.ExtensionContext, services: CommandServices): void {
  const { manager, store, newSession, continuations, edits, version } = services;
  const commands: Record<string, (...args: unknown[]) => unknown> = {
    'howdah.newSession': async (agentId?: unknown, options?: unknown) => {
      const focus = (options as { focus?: unknown } | undefined)?.focus !== false;
      const managed = await newSession.start(typeof agentId === 'string' ? agentId : undefined, { focus });
      return managed?.key;
    },
    'howdah.chooseAgent': async () => {
      const id = await pickAgent(manager.registry);
      if (id) await newSession.start(id);
    },
    'howdah.addAgent': async () => {
      const id = await addAgent(manager.registry);
      if (id) await newSession.start(id);
      return id;
    },
    'howdah.removeAgent': () => removeAgent(manager.registry),
    'howdah.addAccount': async () => {
      const id = await addAccount(manager.registry);
      if (id) await newSession.start(id);
      return id;
    },
    'howdah.refreshRegistry': async () => {
      const registry = manager.registry.sources?.registry;
      if (!registry) return;
      const message = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Howdah: refreshing the agent registry') }, () => registry.refresh(true));
      void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: {0}', message));
      return message;
    },
    'howdah.openSession': () => pickPastSession(manager, store),
    'howdah.handOff': async (agentId?: unknown) => {
      const next = await continuations.handOff(undefined, typeof agentId === 'string' ? agentId : undefined);
      if (next) await vscode.commands.executeCommand('howdah.chat.focus');
      return next?.key;
    },
    'howdah.closeSession': async () => {
      const active = manager.active;
      if (active) await manager.close(active.key);
    },
    'howdah.deleteSession': async () => {
      const active = manager.active;
      if (!active) return;
      const ok = await vscode.window.showWarningMessage(vscode.l10n.t('Delete the conversation "{0}" with {1}?', active.session.state.info.title ?? vscode.l10n.t('Untitled'), active.agentName), { modal: true }, vscode.l10n.t('Delete'));
      if (ok === vscode.l10n.t('Delete')) await manager.delete(active.key);
    },
    'howdah.restartAgent': async () => {
      const active = manager.active;
      if (active) await manager.restart(active.key);
    },
    'howdah.showProtocolLog': () => {
      const active = manager.active;
      const recorder = active && manager.probes.protocolOf(active.key).recorder;
      if (!active || !recorder) return void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: start a session to see its protocol log.'));
      showProtocolLog(active.agentName, recorder);
    },
    'howdah.exportDebugBundle': () => {
      const active = manager.active;
      const { recorder, init } = active ? manager.probes.protocolOf(active.key) : {};
      return exportDebugBundle(active, { howdahVersion: version, recorder, init, logLines: active ? manager.probes.agentLogLines(active.key) : [] });
    },
    'howdah.signOut': async () => {
      if (!manager.canSignOut) return void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: the agent in front does not offer signing out.'));
      return manager.signOut().catch(() => undefined);
    },
    'howdah.showAgentLog': () => {
      const active = manager.active;
      if (active) manager.probes.showLog(active.key);
    },
    'howdah.allowFolderForAgent': async (key?: unknown) => {
      const target = typeof key === 'string' ? key : manager.active?.key;
      if (!target || !edits.follows(target)) return void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: start a session first.'));
      const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: true, openLabel: vscode.l10n.t('Let the Agent Use') });
      for (const uri of picked ?? []) edits.addRoot(target, uri.fsPath);
      return picked?.length ?? 0;
    },
  };
  for (const [id, handler] of Object.entries(commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  }
}
