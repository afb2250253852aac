import * as assert from 'node:assert/strict';
import type { HowdahApi } from '../../src/api';
import { registerAgent } from './agentSetup';
import { howdah } from './helpers';

interface Entry {
  kind: string;
  compactionId?: string;
  status?: string;
  summary?: { type: string; text?: string }[];
  error?: string;
}

describe('compaction: context compactions in the timeline', function () {
  this.timeout(60000);
  let api: HowdahApi;
  let key: string;
  before(async () => {
    api = await howdah();
  });
  after(async () => key && api.close(key));

  it('advertises session.compaction; one entry per compactionId with its summary, a failure with its error', async () => {
    key = await api.newSession(await registerAgent('compaction', 'test:compaction'));
    assert.equal(await api.prompt(key, 'go'), 'end_turn');
    const entries = (api.snapshot(key) as { entries: Entry[] }).entries;
    assert.deepEqual(entries.map((e) => e.kind), ['message', 'compaction', 'compaction', 'message', 'turn-end']);
    const [c1, c2] = entries.filter((e) => e.kind === 'compaction');
    assert.deepEqual([c1.compactionId, c1.status, c1.summary?.map((b) => b.text).join('')], ['c1', 'completed', 'We renamed the parser and fixed two tests.']);
    assert.deepEqual([c2.compactionId, c2.status, c2.error], ['c2', 'failed', 'The summariser timed out']);
    assert.deepEqual(api.protocolProblems(key).filter((p) => /compaction/.test(p)), [], 'no warning: the capability was advertised');
  });
});
