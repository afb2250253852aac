import { strict as assert } from 'node:assert';
import { groupPastSessions, UNTITLED, type SavedSummary } from '../../../src/session/pastSessions';

const saved = (over: Partial<SavedSummary> & { sessionId: string }): SavedSummary => ({ agentId: 'a', agentName: 'Agent A', cwd: '/w', updatedAt: '2026-01-01T00:00:00Z', entryCount: 2, ...over });

describe('past sessions grouped by agent (Open Past Session)', () => {
  it('groups saved and agent-listed sessions by agent, newest first in each and across groups', () => {
    const groups = groupPastSessions(
      [saved({ sessionId: 's1', title: 'Old one', updatedAt: '2026-01-01T00:00:00Z' }), saved({ agentId: 'b', agentName: 'Agent B', sessionId: 'b1', updatedAt: '2026-03-01T00:00:00Z' })],
      [{ agentId: 'a', agentName: 'Agent A', sessions: [{ sessionId: 'x2', cwd: '/w', title: 'Newer', updatedAt: '2026-02-01T00:00:00Z' }] }],
    );
    assert.deepEqual(
      groups.map((g) => [g.agentId, g.rows.map((r) => r.sessionId)]),
      [
        ['b', ['b1']],
        ['a', ['x2', 's1']],
      ],
    );
    assert.equal(groups[1]!.rows[0]!.listedByAgent, true);
    assert.equal(groups[1]!.rows[1]!.listedByAgent, false);
  });

  it('one conversation known both ways is one row: opened from the transcript, named by Howdah first, then the agent', () => {
    const both = groupPastSessions([saved({ sessionId: 's1', updatedAt: '2026-01-01T00:00:00Z', firstWords: 'fix the bug' })], [{ agentId: 'a', agentName: 'Agent A', sessions: [{ sessionId: 's1', cwd: '/w', title: "Agent's title", updatedAt: '2026-05-01T00:00:00Z' }] }]);
    assert.equal(both[0]!.rows.length, 1);
    const row = both[0]!.rows[0]!;
    assert.equal(row.title, "Agent's title", 'an untitled transcript takes the agent title over its first words');
    assert.equal(row.updatedAt, '2026-05-01T00:00:00Z', 'the later time of the two');
    assert.ok(row.saved && row.listedByAgent);
    const titled = groupPastSessions([saved({ sessionId: 's1', title: 'Mine' })], [{ agentId: 'a', agentName: 'Agent A', sessions: [{ sessionId: 's1', cwd: '/w', title: 'Theirs' }] }]);
    assert.equal(titled[0]!.rows[0]!.title, 'Mine');
  });

  it('names untitled rows by first words, else the session id; keeps paging cursors and problems', () => {
    const groups = groupPastSessions(
      [saved({ sessionId: 's1', firstWords: 'why does greet fail' }), saved({ sessionId: 's2' })],
      [
        { agentId: 'a', agentName: 'Agent A', sessions: [{ sessionId: 'raw-id', cwd: '/w' }], nextCursor: 'page-2' },
        { agentId: 'c', agentName: 'Agent C', sessions: [], problem: 'Sign in to Agent C to see its sessions.' },
      ],
    );
    const a = groups.find((g) => g.agentId === 'a')!;
    assert.deepEqual(a.rows.map((r) => r.title).sort(), ['raw-id', UNTITLED, 'why does greet fail'].sort());
    assert.equal(a.nextCursor, 'page-2');
    const c = groups.find((g) => g.agentId === 'c')!;
    assert.equal(c.rows.length, 0);
    assert.match(c.problem!, /Sign in/);
  });

  it('leaves out an agent with nothing to list and nothing to say', () => {
    assert.deepEqual(groupPastSessions([], [{ agentId: 'a', agentName: 'A', sessions: [] }]), []);
  });
});
