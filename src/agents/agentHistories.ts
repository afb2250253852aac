import type { AcpConnection } from '../acp/connection';
import { ErrorCode, RpcError } from '../acp/errors';
import type { SessionInfo } from '../acp/schema/agentMethods';
import type { AgentHistory } from '../session/pastSessions';
import type { AgentLog } from './agentLog';
import type { AgentRegistry, KnownAgent } from './agentRegistry';
import type { AgentStarter } from './agentStarter';
import * as l10n from '@vscode/l10n';

/** Pages read per ask: a long history shows its newest sessions at once and the rest on "Load more". */
const PAGES_PER_ASK = 5;
export interface HistoryLimits {
  /** How long a background start may take to list before it is given up (the list shows why). */
  readonly timeoutMs: number;
  /** Agents started at once to ask: each is a process, and the machine is the user's. */
  readonly atOnce: number;
}
const LIMITS: HistoryLimits = { timeoutMs: 15_000, atOnce: 2 };

export interface HistoryOptions {
  /** Only these agents (tests; a caller that knows which). Default: every installed agent. */
  readonly agentIds?: readonly string[];
  /** Ask again even where the window already asked. */
  readonly refresh?: boolean;
}

/**
 * Every installed agent's own session list for a folder, asked once per window: through the agent's running
 * connection when a session of it runs, else by starting it in the background (initialize, `session/list` page by
 * page, stop). An agent that cannot list is remembered as such and never started for this again.
 */
export class AgentHistories {
  /** agentId + cwd → what the agent said (or the ask in flight). */
  private readonly cache = new Map<string, Promise<AgentHistory | undefined>>();

  constructor(
    private readonly registry: AgentRegistry,
    private readonly starter: AgentStarter,
    private readonly logFor: (agent: KnownAgent) => AgentLog,
    /** A running connection of this agent, when one of its sessions runs. */
    private readonly runningConnection: (agentId: string) => AcpConnection | undefined,
    private readonly limits: HistoryLimits = LIMITS,
  ) {}

  /** The lists of every agent that has sessions to list (agents that cannot list are left out), each as it arrives. */
  async list(cwd: string, options: HistoryOptions = {}, onEach?: (history: AgentHistory) => void): Promise<AgentHistory[]> {
    if (options.refresh) for (const id of options.agentIds ?? this.registry.list().map((a) => a.id)) this.cache.delete(keyOf(id, cwd));
    const agents = await this.candidates(cwd, options.agentIds);
    const results: AgentHistory[] = [];
    let next = 0;
    const worker = async () => {
      while (next < agents.length) {
        const agent = agents[next++]!;
        const key = keyOf(agent.id, cwd);
        let ask = this.cache.get(key);
        if (!ask) this.cache.set(key, (ask = this.ask(agent, cwd)));
        const history = await ask;
        if (!history) continue;
        results.push(history);
        onEach?.(history);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.limits.atOnce, agents.length) }, worker));
    return results;
  }

  /** The next pages of one agent's list, after `cursor`; the cached list grows by them. */
  async more(agentId: string, cwd: string, cursor: string): Promise<AgentHistory | undefined> {
    const agent = this.registry.find(agentId);
    if (!agent) return undefined;
    const key = keyOf(agent.id, cwd);
    const earlier = await this.cache.get(key);
    const page = await this.ask(agent, cwd, cursor);
    if (!page) return undefined;
    const merged: AgentHistory = { ...page, sessions: [...(earlier?.sessions ?? []), ...page.sessions] };
    this.cache.set(key, Promise.resolve(merged));
    return page;
  }

  /** The agents to ask: those already asked in this window, and the others that are installed (looked up once each). */
  private async candidates(cwd: string, ids: readonly string[] | undefined): Promise<KnownAgent[]> {
    const agents = ids ? ids.map((id) => this.registry.find(id)).filter((a): a is KnownAgent => !!a) : this.registry.list();
    const installed = await Promise.all(agents.map((a) => this.cache.has(keyOf(a.id, cwd)) || this.registry.availabilityOf(a).then((v) => v.installed)));
    return agents.filter((_, i) => installed[i]);
  }

  /** One ask: undefined when the agent cannot list (nothing to show, nothing to say). */
  private async ask(agent: KnownAgent, cwd: string, cursor?: string): Promise<AgentHistory | undefined> {
    const running = this.runningConnection(agent.id);
    if (running) return running.supports('listSessions') ? this.pages(agent, running, cwd, cursor) : undefined;
    const log = this.logFor(agent);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.limits.timeoutMs);
    const starting = this.starter.start(agent, cwd, log);
    let started: Awaited<typeof starting> | undefined;
    try {
      started = await abortable(starting, timeout.signal);
      if (!started.connection.acp.supports('listSessions')) return undefined;
      log.info(l10n.t('Asking {0} for its sessions in {1} (Open Past Session).', agent.name, cwd));
      return await this.pages(agent, started.connection.acp, cwd, cursor, timeout.signal);
    } catch (error) {
      const problem = describe(agent, error, timeout.signal.aborted && this.limits.timeoutMs);
      log.warn(`${agent.name} could not list its sessions: ${problem}`);
      return { agentId: agent.id, agentName: agent.name, sessions: [], problem };
    } finally {
      clearTimeout(timer);
      // Started only to ask: stopped once it answered, or when it arrives after the ask was given up.
      if (started) await this.starter.stop(started, 'user').catch(() => undefined);
      else starting.then((late) => this.starter.stop(late, 'user'), () => undefined).catch(() => undefined);
    }
  }

  private async pages(agent: KnownAgent, acp: AcpConnection, cwd: string, cursor?: string, signal?: AbortSignal): Promise<AgentHistory> {
    const sessions: SessionInfo[] = [];
    let next = cursor;
    for (let page = 0; page < PAGES_PER_ASK; page++) {
      const answer = await acp.call('listSessions', { cwd, ...(next ? { cursor: next } : {}) }, signal);
      sessions.push(...answer.sessions.filter((s) => s.cwd === cwd || !s.cwd));
      next = answer.nextCursor ?? undefined;
      if (!next) break;
    }
    return {
      agentId: agent.id,
      agentName: agent.name,
      sessions: sessions.map((s) => ({ sessionId: s.sessionId, cwd: s.cwd, ...(s.title ? { title: s.title } : {}), ...(s.updatedAt ? { updatedAt: s.updatedAt } : {}) })),
      ...(next ? { nextCursor: next } : {}),
    };
  }
}

const keyOf = (agentId: string, cwd: string) => `${agentId}\n${cwd}`;

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(l10n.t('timed out')));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describe(agent: KnownAgent, error: unknown, timedOutAfter: number | false): string {
  if (timedOutAfter) return l10n.t('{0} did not answer within {1} s.', agent.name, timedOutAfter / 1000);
  if (error instanceof RpcError && error.code === ErrorCode.authRequired) return l10n.t('Sign in to {0} to see its sessions.', agent.name);
  return error instanceof Error ? error.message : String(error);
}
