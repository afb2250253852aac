import * as vscode from 'vscode';
import type { SessionInfo } from '../acp/schema/agentMethods';
import type { SessionManager } from './sessionManager';
import type { SessionStore } from './sessionStore';

/**
 * "Howdah: Open Past Session…": this workspace's conversations — those Howdah saved and those the active agent lists
 * with `session/list` — newest first, with title, agent and time. Opening one resumes it.
 */
export async function pickPastSession(manager: SessionManager, store: SessionStore): Promise<void> {
  type Item = vscode.QuickPickItem & { open: () => Promise<unknown> };
  const saved = await store.list();
  const fromAgent = await agentHistory(manager).catch(() => undefined);
  const items: (Item & { time: string })[] = saved.map((s) => ({
    label: s.title || firstWords(s) || vscode.l10n.t('Untitled conversation'),
    description: s.agentName,
    detail: vscode.l10n.t('{0} · {1} entries', when(s.updatedAt), s.entries.length),
    time: s.updatedAt,
    open: () => manager.openPast({ agentId: s.agentId, sessionId: s.sessionId, cwd: s.cwd, saved: s }),
  }));
  for (const info of fromAgent?.sessions ?? []) {
    if (saved.some((s) => s.sessionId === info.sessionId && s.agentId === fromAgent!.agentId)) continue;
    items.push({
      label: info.title || info.sessionId,
      description: vscode.l10n.t('{0} (from the agent)', fromAgent!.agentId),
      detail: info.updatedAt ? when(info.updatedAt) : undefined,
      time: info.updatedAt ?? '',
      open: () => manager.openPast({ agentId: fromAgent!.agentId, sessionId: info.sessionId, cwd: info.cwd, title: info.title ?? undefined }),
    });
  }
  items.sort((a, b) => b.time.localeCompare(a.time));
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Howdah: no past conversations in this workspace yet.'));
    return;
  }
  const choice = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Howdah: Open Past Session'), matchOnDescription: true, matchOnDetail: true });
  if (!choice) return;
  await choice.open();
  await vscode.commands.executeCommand('howdah.chat.focus');
}

function firstWords(s: { entries: readonly { kind: string; role?: string; text?: string }[] }): string | undefined {
  const first = s.entries.find((e) => e.kind === 'message' && e.role === 'user');
  return first?.text?.slice(0, 80);
}

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The agent's own list of sessions for this workspace, from the active session's agent when it runs and can list. */
export async function agentHistory(manager: SessionManager): Promise<{ agentId: string; sessions: SessionInfo[] } | undefined> {
  const active = manager.active;
  const acp = active && manager.probes.runningAgent(active.key)?.acp;
  if (!active || !acp?.supports('listSessions')) return undefined;
  const sessions: SessionInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await acp.call('listSessions', { cwd: active.cwd, ...(cursor ? { cursor } : {}) });
    sessions.push(...page.sessions);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && sessions.length < 500);
  return { agentId: active.agentId, sessions };
}
