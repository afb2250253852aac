import * as assert from 'node:assert/strict';
import type { HowdahApi, ResourceCounts } from '../../src/api';
import { alive, howdah } from './helpers';

/**
 * Opens a session with the fake agent, runs one turn in it and closes it (deleting its saved transcript, so the
 * history other suites read is not flooded); returns the agent's pid.
 */
async function oneSession(api: HowdahApi): Promise<number | undefined> {
  const key = await api.newSession('fake');
  const pid = api.agentPid(key);
  assert.equal(await api.prompt(key, 'Show me an example'), 'end_turn');
  await api.delete(key);
  return pid;
}

const MB = 1024 * 1024;

describe('session lifecycle: nothing outlives its session', function () {
  // 200 agent processes, started and stopped one pair at a time: about a minute on two cores.
  this.timeout(10 * 60 * 1000);

  afterEach(async () => (await howdah()).stopAll());

  it('starts, prompts and closes 200 sessions: listeners, scopes and heap are back at their baseline, every agent gone', async () => {
    const api = await howdah();
    for (const key of api.sessionKeys()) await api.close(key);
    // Warm up: first starts load code, create the agent's output channel and fill caches that are not per session.
    for (let i = 0; i < 4; i++) await oneSession(api);
    const baseline: ResourceCounts = api.resources();
    const pids: number[] = [];
    for (let i = 0; i < 100; i++) {
      const two = await Promise.all([oneSession(api), oneSession(api)]);
      for (const pid of two) if (pid) pids.push(pid);
    }
    const after = api.resources();
    const report = `baseline ${JSON.stringify(baseline)}, after 200 sessions ${JSON.stringify(after)}`;
    console.log(`      ${report}`);
    assert.equal(pids.length, 200, report);
    assert.equal(after.sessions, baseline.sessions, report);
    assert.equal(after.listeners, baseline.listeners, `listeners: ${report}`);
    assert.equal(after.scopes, baseline.scopes, `scopes: ${report}`);
    // One leaked session holds its transcript, state, router and connection: tens of kB each, so 200 would be
    // several MB; what is left is the collector's noise.
    assert.ok(after.heapUsed - baseline.heapUsed < 4 * MB, `heap grew by ${((after.heapUsed - baseline.heapUsed) / MB).toFixed(1)} MB: ${report}`);
    assert.deepEqual(pids.filter(alive), [], 'every agent process was stopped');
  });
});
