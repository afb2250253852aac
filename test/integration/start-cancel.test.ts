import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HowdahApi } from '../../src/api';
import { registerAgent } from './agentSetup';
import { alive, howdah, waitFor } from './helpers';

interface Gate {
  kind?: string;
  id?: string;
  step?: string;
  message?: string;
  stderr?: string[];
}

describe('cancelling a hung start', function () {
  this.timeout(60000);
  let api: HowdahApi;
  before(async () => {
    api = await howdah();
  });

  it('a session/new that does not answer offers Cancel after 5 s; Cancel sends $/cancel_request, stops waiting and stops the agent', async () => {
    const log = path.join(os.tmpdir(), `howdah-hang-${Date.now()}.jsonl`);
    const agentId = await registerAgent('hang-start', 'test:start-hangs', { FAKE_AGENT_LOG: log });
    const starting = api.newSession(agentId);
    starting.catch(() => undefined);
    const gate = await waitFor('Cancel to be offered', () => {
      const g = api.panelGate() as Gate | undefined;
      return g?.kind === 'startWaiting' ? g : undefined;
    }, 20000);
    assert.equal(gate.step, 'session/new');
    assert.match(gate.message ?? '', /has not answered session\/new/);
    await api.panelIntent({ type: 'cancelStart', id: gate.id });
    await assert.rejects(starting, /cancelled session\/new/);

    const lines = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const request = lines.find((l) => l.dir === 'in' && l.msg.method === 'session/new');
    const cancel = lines.find((l) => l.dir === 'in' && l.msg.method === '$/cancel_request');
    assert.deepEqual(cancel?.msg.params, { requestId: request.msg.id }, 'the cancel names the session/new request');

    const failure = await waitFor('the start error', () => {
      const g = api.panelGate() as Gate | undefined;
      return g?.kind === 'startError' ? g : undefined;
    });
    assert.match(failure.message ?? '', /cancelled session\/new/);
    const pid = Number(/pid (\d+)/.exec((failure.stderr ?? []).join('\n'))?.[1]);
    assert.ok(pid > 0, `the agent's pid is in its stderr: ${JSON.stringify(failure.stderr)}`);
    await waitFor('the hung agent to be stopped', () => !alive(pid) || undefined);
    await api.panelIntent({ type: 'startError', id: failure.id, action: 'dismiss' });
  });
});
