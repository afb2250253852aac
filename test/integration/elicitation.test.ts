import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HowdahApi } from '../../src/api';
import { registerAgent } from './agentSetup';
import { agentText, howdah, waitFor } from './helpers';

interface ElicitationEntry {
  kind: 'elicitation';
  elicitation: { key: number; mode: string; url?: string; status: string; endedBy?: string; toolCallId?: string; answered?: { label: string; value: string }[]; form?: { fields: { name: string; kind: string }[] } };
}
interface Snapshot {
  turn: string;
  entries: ({ kind: string } | ElicitationEntry)[];
}
const snap = (api: HowdahApi, key: string) => api.snapshot(key) as Snapshot;
const questions = (s: Snapshot) => s.entries.filter((e): e is ElicitationEntry => e.kind === 'elicitation').map((e) => e.elicitation);
const waiting = (api: HowdahApi, key: string) => waitFor('a question to wait', () => questions(snap(api, key)).find((q) => q.status === 'waiting'));
/** What the agent echoed after "ANSWER " / "SETUP ": the elicitation result it received, as JSON. */
const echoed = (api: HowdahApi, key: string, tag: string) => JSON.parse(agentText(api.snapshot(key)).split(`${tag} `).pop()!.trim());

describe('elicitation: agents ask the user through a form', function () {
  this.timeout(60000);
  let api: HowdahApi;
  const opened: string[] = [];
  before(async () => {
    api = await howdah();
  });
  afterEach(async () => {
    for (const key of opened.splice(0)) await api.close(key).catch(() => undefined);
  });

  it('session scope: the form shows in the transcript at its tool call; Submit sends exactly the typed values', async () => {
    const key = await api.newSession(await registerAgent('elicit', 'test:elicitation-form'));
    opened.push(key);
    api.setActive(key);
    const turn = api.prompt(key, 'deploy');
    const question = await waiting(api, key);
    assert.equal(question.toolCallId, 'deploy-1');
    assert.deepEqual(question.form?.fields.map((f) => [f.name, f.kind]), [['version', 'text'], ['replicas', 'number'], ['region', 'select'], ['canary', 'boolean']]);
    // A value the form refuses is not sent (the pattern wants v1.2.3): the question still waits.
    await api.panelIntent({ type: 'elicitation', key: question.key, action: 'accept', inputs: { version: '1.2', replicas: '3', region: 'us', canary: true } });
    assert.equal(questions(snap(api, key))[0].status, 'waiting');
    await api.panelIntent({ type: 'elicitation', key: question.key, action: 'accept', inputs: { version: 'v1.2.3', replicas: '3', region: 'us', canary: true } });
    assert.equal(await turn, 'end_turn');
    assert.deepEqual(echoed(api, key, 'ANSWER'), { action: 'accept', content: { version: 'v1.2.3', replicas: 3, region: 'us', canary: true } });
    const done = questions(snap(api, key))[0];
    assert.equal(done.status, 'accepted');
    assert.deepEqual(done.answered?.map((a) => `${a.label}=${a.value}`), ['Version=v1.2.3', 'Replicas=3', 'Region=United States', 'Canary first=yes']);
  });

  it('Stop during a question answers it cancel; an unknown property type leaves the form answerable', async () => {
    const log = path.join(os.tmpdir(), `howdah-elicit-${Date.now()}.jsonl`);
    const key = await api.newSession(await registerAgent('elicit-cancel', 'test:elicitation-form', { FAKE_AGENT_LOG: log }));
    opened.push(key);
    api.setActive(key);
    const firstTurn = api.prompt(key, 'first');
    const first = await waiting(api, key);
    await api.panelIntent({ type: 'elicitation', key: first.key, action: 'decline' });
    assert.equal(await firstTurn, 'end_turn');
    const second = api.prompt(key, 'second');
    const question = await waitFor('the second question', () => questions(snap(api, key)).find((q) => q.status === 'waiting' && q.key !== first.key));
    await api.cancel(key);
    assert.equal(await second, 'cancelled');
    const ended = questions(snap(api, key)).find((q) => q.key === question.key)!;
    assert.deepEqual([ended.status, ended.endedBy], ['cancelled', 'turn']);
    const answers = fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.dir === 'in' && l.msg.result?.action);
    assert.deepEqual(answers.map((l) => l.msg.result), [{ action: 'decline' }, { action: 'cancel' }], 'the agent got decline, then cancel for the stopped question');

    const third = api.prompt(key, 'third');
    const odd = await waitFor('the odd form', () => questions(snap(api, key)).find((q) => q.status === 'waiting'));
    assert.deepEqual(odd.form?.fields.map((f) => f.kind), ['text', 'unknown']);
    await api.panelIntent({ type: 'elicitation', key: odd.key, action: 'accept', inputs: { name: 'x' } });
    assert.equal(await third, 'end_turn');
    assert.deepEqual(echoed(api, key, 'ANSWER'), { action: 'accept', content: { name: 'x' } }, 'the unknown field is not sent, even though required');
  });

  it('url mode: Open opens the link (only then) and answers accept; elicitation/complete closes the card; a javascript: link is never opened', async () => {
    const key = await api.newSession(await registerAgent('elicit-url', 'test:elicitation-url'));
    opened.push(key);
    api.setActive(key);
    api.recordOpenedLinks(true);
    try {
      const turn = api.prompt(key, 'sign in');
      const question = await waiting(api, key);
      assert.deepEqual([question.mode, question.url], ['url', 'https://registry.example.com/device?code=ABCD-1234']);
      assert.deepEqual(api.openedLinks(), [], 'nothing opened before the user agrees');
      await api.panelIntent({ type: 'elicitation', key: question.key, action: 'accept' });
      assert.deepEqual(api.openedLinks(), ['https://registry.example.com/device?code=ABCD-1234']);
      assert.equal(await turn, 'end_turn');
      assert.deepEqual(echoed(api, key, 'ANSWER'), { action: 'accept' });
      await waitFor('the card to close', () => questions(snap(api, key))[0].status === 'completed' || undefined);

      const second = api.prompt(key, 'again');
      const bad = await waitFor('the javascript: link', () => questions(snap(api, key)).find((q) => q.status === 'waiting'));
      await api.panelIntent({ type: 'elicitation', key: bad.key, action: 'accept' });
      assert.equal(questions(snap(api, key)).find((q) => q.key === bad.key)?.status, 'waiting', 'not opened, so not accepted');
      assert.equal(api.openedLinks().length, 1);
      await api.panelIntent({ type: 'elicitation', key: bad.key, action: 'decline' });
      assert.equal(await second, 'end_turn');
      assert.deepEqual(echoed(api, key, 'ANSWER'), { action: 'decline' });
    } finally {
      api.recordOpenedLinks(false);
    }
  });

  it('request scope: a question during session/new shows in the start area; the answer reaches the agent and the session opens', async () => {
    const agentId = await registerAgent('elicit-start', 'test:elicitation-start');
    const starting = api.newSession(agentId);
    const gate = await waitFor('the start area to ask', () => {
      const g = api.panelGate() as { kind?: string; agentName?: string; elicitation?: { key: number; message: string } } | undefined;
      return g?.kind === 'elicitation' ? g : undefined;
    });
    assert.equal(gate.agentName, agentId);
    assert.match(gate.elicitation!.message, /workspace profile/);
    await api.panelIntent({ type: 'elicitation', key: gate.elicitation!.key, action: 'accept', inputs: { profile: 'full', telemetry: false } });
    const key = await starting;
    opened.push(key);
    await waitFor('the start area to clear', () => (api.panelGate() as { kind?: string } | undefined)?.kind !== 'elicitation' || undefined);
    await api.prompt(key, 'hello');
    assert.deepEqual(echoed(api, key, 'SETUP'), { action: 'accept', content: { profile: 'full', telemetry: false } });
  });
});
