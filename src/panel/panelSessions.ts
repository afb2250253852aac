import type * as vscode from 'vscode';
import type { PromptBlock } from '../acp/schema/agentMethods';
import type { ElicitationRecord } from '../session/elicitationRecord';
import type { ElicitationAnswer } from '../session/elicitations';
import type { Session } from '../session/session';
import type { AllowancesView } from '../shared/allowances';

/**
 * What the panel needs from the session manager (src/agents/sessionManager.ts), as an interface so the panel's
 * pieces can be driven by a fake in tests. The manager satisfies it structurally.
 */
export interface PanelSession {
  readonly key: string;
  readonly agentId: string;
  readonly agentName: string;
  readonly agentVersion?: string;
  readonly session: Session;
  readonly status: 'starting' | 'ready' | 'restarting' | 'exited';
  /** What the agent may do (folders, read, write, commands, MCP servers). */
  readonly allowances?: AllowancesView;
}

export interface PanelSessions {
  readonly onDidChange: vscode.Event<void>;
  readonly active: PanelSession | undefined;
  list(): PanelSession[];
  setActive(key: string): void;
  /** Resolves when the turn is over (to its stop reason); a session whose agent is down is started again first. */
  prompt(key: string, blocks: PromptBlock[]): Promise<unknown>;
  /** Stops the running turn. */
  cancel(key: string): Promise<void>;
  /** Questions agents ask while they start, before a session exists (shown in the panel's start area). */
  readonly startQuestions?: { readonly current?: { readonly agentName: string; readonly record: ElicitationRecord }; readonly count: number };
  /** The agents' questions still waiting on the user, in any session or the start area (src/agents/agentQuestions.ts). */
  readonly questions?: {
    find(key: number): ElicitationRecord | undefined;
    /** False when it no longer waits (or a form's values are not valid). */
    answer(key: number, answer: ElicitationAnswer): boolean;
  };
}

/**
 * Keeps one resource per live session (created when the session appears, disposed when it goes), so per-session
 * listeners are owned and never leak past their session.
 */
export class PerSession<T extends { dispose(): void }> {
  private readonly items = new Map<string, { session: Session; item: T }>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly sessions: PanelSessions,
    private readonly create: (managed: PanelSession) => T,
  ) {
    this.subscription = sessions.onDidChange(() => this.sync());
    this.sync();
  }

  get(key: string): T | undefined {
    this.sync();
    return this.items.get(key)?.item;
  }

  sync(): void {
    const live = new Map(this.sessions.list().map((m) => [m.key, m]));
    for (const [key, { session, item }] of this.items) {
      if (live.get(key)?.session !== session) {
        item.dispose();
        this.items.delete(key);
      }
    }
    for (const [key, managed] of live) {
      if (!this.items.has(key)) this.items.set(key, { session: managed.session, item: this.create(managed) });
    }
  }

  dispose(): void {
    this.subscription.dispose();
    for (const { item } of this.items.values()) item.dispose();
    this.items.clear();
  }
}
