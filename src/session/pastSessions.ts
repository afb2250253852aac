import * as l10n from '@vscode/l10n';
/**
 * "Open Past Session…" as data: the conversations Howdah saved and those each agent lists with `session/list`,
 * grouped by agent, newest first. One conversation known both ways is one row: Howdah's transcript opens it (its
 * entries show at once), the agent's title names it when Howdah has none.
 */

/** A conversation Howdah saved, as much of it as the list needs. */
export interface SavedSummary {
  readonly agentId: string;
  readonly agentName: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly title?: string;
  readonly updatedAt: string;
  readonly entryCount: number;
  /** The first user message, for an untitled conversation. */
  readonly firstWords?: string;
}

/** What one agent said about its sessions in this folder (or why it could not say). */
export interface AgentHistory {
  readonly agentId: string;
  readonly agentName: string;
  readonly sessions: readonly { sessionId: string; cwd: string; title?: string; updatedAt?: string }[];
  /** More pages wait behind this cursor. */
  readonly nextCursor?: string;
  /** Why there is no list: the agent cannot list, needs a sign-in, did not start or answer. */
  readonly problem?: string;
}

export interface PastSessionRow {
  readonly agentId: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly title: string;
  /** ISO time, or '' when nobody said. */
  readonly updatedAt: string;
  /** Howdah's transcript of it, when it has one (opening shows it at once). */
  readonly saved?: SavedSummary;
  /** Listed by the agent itself (it can load or resume it). */
  readonly listedByAgent: boolean;
}

export interface PastSessionGroup {
  readonly agentId: string;
  readonly agentName: string;
  readonly rows: readonly PastSessionRow[];
  readonly nextCursor?: string;
  readonly problem?: string;
  /** The newest row's time: groups are ordered by it. */
  readonly newest: string;
}

export const UNTITLED = l10n.t('Untitled conversation');

export function groupPastSessions(saved: readonly SavedSummary[], histories: readonly AgentHistory[]): PastSessionGroup[] {
  const groups = new Map<string, { agentName: string; rows: Map<string, PastSessionRow>; nextCursor?: string; problem?: string }>();
  const groupOf = (agentId: string, agentName: string) => {
    let group = groups.get(agentId);
    if (!group) groups.set(agentId, (group = { agentName, rows: new Map() }));
    return group;
  };
  for (const s of saved) {
    groupOf(s.agentId, s.agentName).rows.set(s.sessionId, {
      agentId: s.agentId,
      sessionId: s.sessionId,
      cwd: s.cwd,
      title: s.title || s.firstWords || UNTITLED,
      updatedAt: s.updatedAt,
      saved: s,
      listedByAgent: false,
    });
  }
  for (const h of histories) {
    const group = groupOf(h.agentId, h.agentName);
    // The agent's own name wins over the one a transcript recorded (it may have been renamed since).
    group.agentName = h.agentName;
    if (h.nextCursor) group.nextCursor = h.nextCursor;
    if (h.problem) group.problem = h.problem;
    for (const info of h.sessions) {
      const known = group.rows.get(info.sessionId);
      const newer = [known?.updatedAt ?? '', info.updatedAt ?? ''].sort().at(-1)!;
      group.rows.set(info.sessionId, {
        agentId: h.agentId,
        sessionId: info.sessionId,
        cwd: info.cwd,
        title: known?.saved?.title || info.title || known?.title || info.sessionId,
        updatedAt: newer,
        ...(known?.saved ? { saved: known.saved } : {}),
        listedByAgent: true,
      });
    }
  }
  const result: PastSessionGroup[] = [];
  for (const [agentId, g] of groups) {
    const rows = [...g.rows.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    if (rows.length === 0 && !g.problem && !g.nextCursor) continue;
    result.push({ agentId, agentName: g.agentName, rows, newest: rows[0]?.updatedAt ?? '', ...(g.nextCursor ? { nextCursor: g.nextCursor } : {}), ...(g.problem ? { problem: g.problem } : {}) });
  }
  return result.sort((a, b) => b.newest.localeCompare(a.newest) || a.agentName.localeCompare(b.agentName));
}
