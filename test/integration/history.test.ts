import * as assert from 'node:assert/strict';
import { registerAgent } from './agentSetup';
import { howdah } from './helpers';

const asks = (lines: string[]) => lines.filter((l) => /Asking .* for its sessions/.test(l)).length;

describe('Open Past Session: the history of agents that are not running', function () {
  this.timeout(90000);

  afterEach(async () => (await howdah()).stopAll());

  it("lists every asked agent's own sessions, grouped by agent, starting it in the background once per window", async () => {
    const api = await howdah();
    await api.stopAll();
    const before = api.sessionKeys();
    const many = await registerAgent('history', 'test:history-many', {}, 'History agent');
    // Asked afresh: an earlier test may have asked fake-load already, through a session of it that ran then.
    const groups = await api.pastSessions({ agentIds: ['fake-load', many, 'fake'], refresh: true });
    assert.deepEqual(api.sessionKeys(), before, 'asking opened no session');

    const load = groups.find((g) => g.agentId === 'fake-load');
    assert.ok(load, `fake-load is listed: ${JSON.stringify(groups.map((g) => g.agentId))}`);
    assert.equal(load.agentName, 'Fake (load)');
    const listed = load.rows.filter((r) => r.listedByAgent);
    // old-1 may also be a transcript Howdah saved (an earlier test opened it): then its time is the later of the two.
    assert.deepEqual(
      listed.map((r) => [r.sessionId, r.title]).sort(),
      [
        ['old-1', 'Fix the greeting bug'],
        ['old-2', 'Explain the build'],
      ],
      "the agent's titles, only this folder (both pages)",
    );
    assert.ok(listed.every((r, i) => i === 0 || listed[i - 1].updatedAt >= r.updatedAt), 'newest first');
    assert.equal(listed.find((r) => r.sessionId === 'old-2')?.updatedAt, '2026-11-29T17:40:00Z', "the agent's date");
    // The markdown agent cannot list: whatever Howdah saved of it shows, nothing is listed by it.
    assert.ok((groups.find((g) => g.agentId === 'fake')?.rows ?? []).every((r) => !r.listedByAgent));

    const history = groups.find((g) => g.agentId === many);
    assert.ok(history);
    assert.deepEqual(
      history.rows.map((r) => r.sessionId),
      ['h-5', 'h-4', 'h-3', 'h-2', 'h-1'],
      'the first five pages, newest first',
    );
    assert.ok(history.nextCursor, 'more pages wait');
    const more = await api.morePastSessions(many, history.nextCursor);
    assert.deepEqual(more?.sessions.map((s) => s.sessionId), ['h-6', 'h-7']);
    assert.equal(more?.nextCursor, undefined);

    assert.equal(asks(api.agentLogOf('fake-load')), 1);
    await api.pastSessions({ agentIds: ['fake-load', many] });
    assert.equal(asks(api.agentLogOf('fake-load')), 1, 'asked once per window');
    const after = (await api.pastSessions({ agentIds: [many] })).find((g) => g.agentId === many)!;
    assert.equal(after.rows.length, 7, '"Load more" pages stay in the window\'s list');
    assert.equal(after.nextCursor, undefined);
    await api.pastSessions({ agentIds: ['fake-load'], refresh: true });
    assert.equal(asks(api.agentLogOf('fake-load')), 2, 'refresh asks again');
  });

  it('asks a running session\'s agent through its connection, and opens a listed session by loading it', async () => {
    const api = await howdah();
    const many = await registerAgent('history-run', 'test:history-many', {}, 'History agent (running)');
    const running = await api.newSession(many);
    const before = api.sessionKeys().length;
    const pid = api.agentPid(running);
    const groups = await api.pastSessions({ agentIds: [many] });
    assert.equal(api.agentPid(running), pid);
    assert.equal(api.sessionKeys().length, before, 'no second session');
    const row = groups.find((g) => g.agentId === many)!.rows.find((r) => r.sessionId === 'h-3')!;
    assert.ok(row.listedByAgent);
    const key = await api.openPast({ agentId: row.agentId, sessionId: row.sessionId, cwd: row.cwd, title: row.title });
    assert.ok(key);
    assert.equal((api.snapshot(key) as { sessionId: string }).sessionId, 'h-3');
  });
});
