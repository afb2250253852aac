import { strict as assert } from 'node:assert';
import { ErrorCode, RpcError } from '../../../src/acp/errors';
import { AgentHistories } from '../../../src/agents/agentHistories';
import type { AgentLog } from '../../../src/agents/agentLog';
import type { AgentRegistry, KnownAgent } from '../../../src/agents/agentRegistry';
import type { AgentStarter } from '../../../src/agents/agentStarter';

type Behaviour = { lists?: boolean; sessions?: string[]; pageSize?: number; hang?: boolean; listError?: Error; installed?: boolean };

/** Agents as fakes: what each does when started, and a record of starts, stops and what ran at once. */
function world(behaviours: Record<string, Behaviour>) {
  const agents = Object.keys(behaviours).map((id) => ({ id, name: `Agent ${id}`, command: id, args: [], env: {}, source: 'settings' }) as unknown as KnownAgent);
  const events: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const connection = (id: string) => {
    const b = behaviours[id]!;
    const all = (b.sessions ?? []).map((sessionId) => ({ sessionId, cwd: '/w', title: `T ${sessionId}` }));
    return {
      supports: (m: string) => m === 'listSessions' && !!b.lists,
      call: async (_m: string, p: { cursor?: string }) => {
        if (b.listError) throw b.listError;
        const size = b.pageSize ?? all.length;
        const start = p.cursor ? Number(p.cursor) : 0;
        const next = start + size < all.length ? String(start + size) : undefined;
        return { sessions: all.slice(start, start + size), ...(next ? { nextCursor: next } : {}) };
      },
    };
  };
  const registry = {
    list: () => agents,
    find: (id: string) => agents.find((a) => a.id === id),
    availabilityOf: async (agent: KnownAgent) => ({ agent, installed: behaviours[agent.id]!.installed !== false }),
  } as unknown as AgentRegistry;
  const starter = {
    start: async (agent: KnownAgent) => {
      events.push(`start ${agent.id}`);
      mostAtOnce = Math.max(mostAtOnce, ++running);
      if (behaviours[agent.id]!.hang) await new Promise((r) => setTimeout(r, 60));
      return { connection: { acp: connection(agent.id) }, id: agent.id };
    },
    stop: async (started: { id: string }) => {
      running--;
      events.push(`stop ${started.id}`);
    },
  } as unknown as AgentStarter;
  const logs: string[] = [];
  const log = { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(`warn ${m}`) } as unknown as AgentLog;
  return { registry, starter, log, events, logs, connection, mostAtOnce: () => mostAtOnce };
}

describe('agent histories: session/list of agents that are not running', () => {
  it('starts each installed agent that can list, lists it page by page, stops it; never twice per window', async () => {
    const w = world({ a: { lists: true, sessions: ['1', '2', '3'], pageSize: 2 }, b: { lists: false }, c: { lists: true, installed: false } });
    const histories = new AgentHistories(w.registry, w.starter, () => w.log, () => undefined, { timeoutMs: 1000, atOnce: 2 });
    const seen: string[] = [];
    const result = await histories.list('/w', {}, (h) => seen.push(h.agentId));
    assert.deepEqual(result.map((h) => [h.agentId, h.sessions.map((s) => s.sessionId)]), [['a', ['1', '2', '3']]]);
    assert.deepEqual(seen, ['a'], 'an agent that cannot list is not a group');
    assert.deepEqual(w.events.sort(), ['start a', 'start b', 'stop a', 'stop b'], 'c is not installed: never started');
    await histories.list('/w');
    assert.equal(w.events.length, 4, 'cached for the window, also "cannot list"');
    await histories.list('/w', { refresh: true, agentIds: ['a'] });
    assert.equal(w.events.filter((e) => e === 'start a').length, 2, 'refresh asks again');
  });

  it('reads five pages per ask and the rest on "more", through the cursor', async () => {
    const w = world({ a: { lists: true, sessions: ['1', '2', '3', '4', '5', '6', '7'], pageSize: 1 } });
    const histories = new AgentHistories(w.registry, w.starter, () => w.log, () => undefined);
    const [first] = await histories.list('/w');
    assert.deepEqual(first!.sessions.map((s) => s.sessionId), ['1', '2', '3', '4', '5']);
    assert.equal(first!.nextCursor, '5');
    const more = await histories.more('a', '/w', first!.nextCursor!);
    assert.deepEqual(more!.sessions.map((s) => s.sessionId), ['6', '7']);
    assert.equal(more!.nextCursor, undefined);
    const [cached] = await histories.list('/w');
    assert.equal(cached!.sessions.length, 7, 'the pages read on "more" stay');
    assert.equal(cached!.nextCursor, undefined);
  });

  it('uses a running connection of the agent instead of starting another', async () => {
    const w = world({ a: { lists: true, sessions: ['1'] } });
    const histories = new AgentHistories(w.registry, w.starter, () => w.log, (id) => (id === 'a' ? (w.connection('a') as never) : undefined));
    const [h] = await histories.list('/w');
    assert.deepEqual(h!.sessions.map((s) => s.sessionId), ['1']);
    assert.deepEqual(w.events, []);
  });

  it('gives up on an agent that does not answer in time, says why, and stops it when it arrives', async () => {
    const w = world({ slow: { lists: true, hang: true, sessions: ['1'] } });
    const histories = new AgentHistories(w.registry, w.starter, () => w.log, () => undefined, { timeoutMs: 10, atOnce: 2 });
    const [h] = await histories.list('/w');
    assert.match(h!.problem!, /did not answer within 0.01 s/);
    assert.deepEqual(h!.sessions, []);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(w.events, ['start slow', 'stop slow'], 'the late start is stopped');
    assert.ok(w.logs.some((l) => l.startsWith('warn') && /could not list/.test(l)));
  });

  it('an agent that needs a sign-in is a problem row, not a prompt', async () => {
    const w = world({ a: { lists: true, listError: new RpcError(ErrorCode.authRequired, 'auth required') } });
    const histories = new AgentHistories(w.registry, w.starter, () => w.log, () => undefined);
    const [h] = await histories.list('/w');
    assert.equal(h!.problem, 'Sign in to Agent a to see its sessions.');
    assert.deepEqual(w.events, ['start a', 'stop a']);
  });

  it('starts at most `atOnce` agents at a time', async () => {
    const w = world({ a: { lists: true, hang: true }, b: { lists: true, hang: true }, c: { lists: true, hang: true }, d: { lists: true, hang: true } });
    const histories = new AgentHistories(w.registry, w.starter, () => w.log, () => undefined, { timeoutMs: 1000, atOnce: 2 });
    assert.equal((await histories.list('/w')).length, 4);
    assert.equal(w.mostAtOnce(), 2);
  });
});
