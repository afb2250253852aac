import * as vscode from 'vscode';
import type { PersistedSession } from '../session/persistence';
import { groupPastSessions, UNTITLED, type AgentHistory, type PastSessionGroup, type PastSessionRow, type SavedSummary } from '../session/pastSessions';
import type { HistoryOptions } from './agentHistories';
import type { SessionManager } from './sessionManager';
import type { SessionStore } from './sessionStore';

type Item = vscode.QuickPickItem & { run?: () => Promise<'close' | 'stay'> };

/**
 * "Howdah: Open Past Session…": this workspace's conversations — those Howdah saved and those every installed agent
 * lists with `session/list` (asked in the background, once per window) — grouped by agent, newest first. The saved
 * ones show at once; each agent's group joins when it answers. Opening one resumes it.
 */
export async function pickPastSession(manager: SessionManager, store: SessionStore): Promise<void> {
  const savedSessions = await store.list();
  const byId = new Map(savedSessions.map((s) => [`${s.agentId}\n${s.sessionId}`, s]));
  const saved = savedSessions.map(summary);
  const cwd = askedFolder(manager);
  const histories = new Map<string, AgentHistory>();
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = vscode.l10n.t('Howdah: Open Past Session');
  pick.placeholder = vscode.l10n.t('Search conversations by title, agent or date');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const refresh = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: vscode.l10n.t('Ask the agents again') };
  pick.buttons = [refresh];
  const show = () => {
    const active = pick.activeItems[0]?.label;
    pick.items = itemsOf(groupPastSessions(saved, [...histories.values()]), manager, byId, (agentId, cursor) => loadMore(agentId, cursor));
    const keep = pick.items.find((i) => i.label === active);
    if (keep) pick.activeItems = [keep];
  };
  const ask = async (refreshing: boolean) => {
    if (!cwd) return;
    pick.busy = true;
    try {
      await manager.histories.list(cwd, { refresh: refreshing }, (h) => {
        histories.set(h.agentId, h);
        show();
      });
    } finally {
      pick.busy = false;
    }
  };
  const loadMore = async (agentId: string, cursor: string): Promise<'stay'> => {
    if (!cwd) return 'stay';
    pick.busy = true;
    try {
      await manager.histories.more(agentId, cwd, cursor);
      // The window's list holds the earlier pages and these: read it back (asked already, so nothing starts).
      const [merged] = await manager.histories.list(cwd, { agentIds: [agentId] });
      if (merged) histories.set(agentId, merged);
      show();
    } finally {
      pick.busy = false;
    }
    return 'stay';
  };
  show();
  const done = new Promise<Item | undefined>((resolve) => {
    pick.onDidAccept(async () => {
      const choice = pick.selectedItems[0];
      if (!choice?.run) return;
      const after = await choice.run();
      if (after === 'close') resolve(choice);
    });
    pick.onDidTriggerButton((b) => b === refresh && void ask(true));
    pick.onDidHide(() => resolve(undefined));
  });
  pick.show();
  void ask(false);
  await done;
  pick.dispose();
}

/** The picker's groups once every agent answered (the picker shows them as they come; tests read them here). */
export async function pastSessionGroups(manager: SessionManager, store: SessionStore, options: HistoryOptions = {}): Promise<PastSessionGroup[]> {
  const saved = (await store.list()).map(summary);
  const cwd = askedFolder(manager);
  const histories = cwd ? await manager.histories.list(cwd, options) : [];
  return groupPastSessions(saved, histories);
}

/** Where agents are asked for their sessions: the first folder, where sessions start; none in an untrusted workspace. */
function askedFolder(manager: SessionManager): string | undefined {
  return manager.trust.isTrusted ? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath : undefined;
}

function itemsOf(groups: PastSessionGroup[], manager: SessionManager, byId: Map<string, PersistedSession>, loadMore: (agentId: string, cursor: string) => Promise<'stay'>): Item[] {
  const items: Item[] = [];
  for (const group of groups) {
    items.push({ label: group.agentName, kind: vscode.QuickPickItemKind.Separator });
    for (const row of group.rows) items.push(rowItem(row, manager, byId.get(`${row.agentId}\n${row.sessionId}`)));
    if (group.nextCursor) {
      const cursor = group.nextCursor;
      items.push({ label: vscode.l10n.t('$(ellipsis) Load more sessions from {0}', group.agentName), alwaysShow: true, run: () => loadMore(group.agentId, cursor) });
    }
    if (group.problem) {
      const showLog = async () => {
        manager.probes.showAgentLog(group.agentId);
        return 'close' as const;
      };
      items.push({ label: `$(warning) ${group.problem}`, description: vscode.l10n.t('Show the agent\'s log'), alwaysShow: true, run: showLog });
    }
  }
  if (items.length === 0) items.push({ label: vscode.l10n.t('No past conversations in this workspace yet'), description: vscode.l10n.t('agents are asked for theirs in the background') });
  return items;
}

function rowItem(row: PastSessionRow, manager: SessionManager, saved: PersistedSession | undefined): Item {
  const where = row.saved && row.listedByAgent ? vscode.l10n.t('saved by Howdah, listed by the agent') : row.saved ? vscode.l10n.t('saved by Howdah') : vscode.l10n.t('listed by the agent');
  return {
    label: row.title,
    description: row.updatedAt ? when(row.updatedAt) : undefined,
    detail: [row.saved ? vscode.l10n.t('{0} entries', row.saved.entryCount) : undefined, where].filter(Boolean).join(' · '),
    run: async () => {
      const title = row.title !== row.sessionId && row.title !== UNTITLED ? row.title : undefined;
      await manager.openPast({ agentId: row.agentId, sessionId: row.sessionId, cwd: row.cwd, ...(title ? { title } : {}), ...(saved ? { saved } : {}) });
      await vscode.commands.executeCommand('howdah.chat.focus');
      return 'close';
    },
  };
}

function summary(s: PersistedSession): SavedSummary {
  const words = firstWords(s);
  return { agentId: s.agentId, agentName: s.agentName, sessionId: s.sessionId, cwd: s.cwd, updatedAt: s.updatedAt, entryCount: s.entries.length, ...(s.title ? { title: s.title } : {}), ...(words ? { firstWords: words } : {}) };
}

function firstWords(s: { entries: readonly { kind: string; role?: string; text?: string }[] }): string | undefined {
  const first = s.entries.find((e) => e.kind === 'message' && e.role === 'user');
  return first?.text?.slice(0, 80);
}

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The active session's agent's own list for its folder (a fresh ask through its running connection), for tests. */
export async function agentHistory(manager: SessionManager): Promise<Pick<AgentHistory, 'agentId' | 'sessions'> | undefined> {
  const active = manager.active;
  if (!active || !manager.probes.runningAgent(active.key)) return undefined;
  const [history] = await manager.histories.list(active.cwd, { agentIds: [active.agentId], refresh: true });
  return history && !history.problem ? { agentId: history.agentId, sessions: history.sessions } : undefined;
}
