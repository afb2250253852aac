import { strict as assert } from 'node:assert';
import { liveScopeCount } from '../../../src/base/disposables';
import { emitterListenerCount } from '../../../src/base/event';
import { SessionFollower } from '../../../src/edits/sessionFollower';
import type { AgentFiles } from '../../../src/workspace/agentFiles';
import { memorySession } from '../support/memorySession';
import type { MemoryPeer } from '../support/memoryPeer';

const update = (u: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: u } });

/** What the follower told the tracker, in order. */
function fakeTracker() {
  const calls: string[] = [];
  return {
    calls,
    onToolCall: (key: string, call: { toolCallId: string }) => void calls.push(`tool ${key} ${call.toolCallId}`),
    turnStarted: (key: string, index: number) => void calls.push(`started ${key} ${index}`),
    turnEnded: (key: string, index: number) => void calls.push(`ended ${key} ${index}`),
    prepareTurn: async (key: string) => void calls.push(`prepare ${key}`),
    closeSession: (key: string) => void calls.push(`close ${key}`),
  };
}

/** One prompt answered by the agent, with `during` sent while it runs. */
async function turn(peer: MemoryPeer, session: Awaited<ReturnType<typeof memorySession>>['session'], during: Record<string, unknown>[] = []): Promise<void> {
  const done = session.prompt([{ type: 'text', text: 'go' }]);
  const request = await peer.next();
  for (const u of during) peer.send(update(u));
  peer.send({ jsonrpc: '2.0', id: request.id, result: { stopReason: 'end_turn' } });
  await done;
}

describe('the edits layer following a session', () => {
  const files = {} as AgentFiles;

  it('feeds the tracker from the session state: turns by their index, tool calls from their announcement on', async () => {
    const { peer, session } = await memorySession();
    const tracker = fakeTracker();
    const follower = new SessionFollower('k', session, files, tracker, () => true);
    assert.equal(follower.files, files);
    await turn(peer, session, [
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit a.ts', kind: 'edit', status: 'pending' },
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' },
    ]);
    await turn(peer, session);
    assert.deepEqual(tracker.calls, ['started k 0', 'prepare k', 'tool k t1', 'tool k t1', 'ended k 0', 'started k 1', 'prepare k', 'ended k 1']);
    follower.dispose();
  });

  it('removes everything it added when disposed, and only then has the tracker forget the session', async () => {
    const { peer, session } = await memorySession();
    const listeners = emitterListenerCount();
    const scopes = liveScopeCount();
    const tracker = fakeTracker();
    const follower = new SessionFollower('k', session, files, tracker, () => true);
    assert.ok(emitterListenerCount() > listeners);
    follower.dispose();
    follower.dispose();
    assert.equal(emitterListenerCount(), listeners);
    assert.equal(liveScopeCount(), scopes);
    assert.deepEqual(tracker.calls, ['close k'], 'closed once');
    await turn(peer, session, [{ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Edit', kind: 'edit', status: 'pending' }]);
    assert.deepEqual(tracker.calls, ['close k'], 'nothing reaches the tracker after that, not even the prompt preparation');
  });

  it('leaves the tracker alone when its session has been attached again meanwhile', async () => {
    const { session } = await memorySession();
    const tracker = fakeTracker();
    new SessionFollower('k', session, files, tracker, () => false).dispose();
    assert.deepEqual(tracker.calls, []);
  });
});
