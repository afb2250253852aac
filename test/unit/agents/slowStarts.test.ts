import { strict as assert } from 'node:assert';
import { SlowStarts, SLOW_START_MS, StartCancelledError } from '../../../src/agents/slowStarts';
import { gateView } from '../../../src/panel/gateView';
import { parseWebviewMessage } from '../../../src/shared/protocol';

/** A schedule the test fires by hand: no waiting on the clock. */
function manualSchedule() {
  const due: { ms: number; fire: () => void; disposed: boolean }[] = [];
  return {
    due,
    schedule: (callback: () => void, ms: number) => {
      const item = { ms, fire: callback, disposed: false };
      due.push(item);
      return { dispose: () => (item.disposed = true) };
    },
    fireAll: () => due.filter((d) => !d.disposed).forEach((d) => d.fire()),
  };
}

describe('slow starts: Cancel for a start call that does not answer', () => {
  it('lists a call only once it has waited SLOW_START_MS; an answer before that shows nothing', async () => {
    const clock = manualSchedule();
    let changes = 0;
    const slow = new SlowStarts(() => changes++, clock.schedule);
    assert.equal(await slow.run('Fake', 'session/new', async () => 'quick'), 'quick');
    assert.equal(clock.due[0].ms, SLOW_START_MS);
    assert.ok(clock.due[0].disposed, 'the timer is gone with the answer');
    assert.equal(slow.current, undefined);
    assert.equal(changes, 0);
  });

  it('Cancel aborts the call\'s signal and stops waiting at once; a late answer is ignored', async () => {
    const clock = manualSchedule();
    const slow = new SlowStarts(() => undefined, clock.schedule);
    let signal: AbortSignal | undefined;
    let answerLate!: (v: string) => void;
    const running = slow.run('Fake', 'session/load', (s) => {
      signal = s;
      return new Promise<string>((resolve) => (answerLate = resolve));
    });
    clock.fireAll();
    const shown = slow.current!;
    assert.deepEqual({ agentName: shown.agentName, step: shown.step }, { agentName: 'Fake', step: 'session/load' });
    slow.cancel('not-this-one');
    assert.equal(signal?.aborted, false, 'another id cancels nothing');
    slow.cancel(shown.id);
    assert.equal(signal?.aborted, true);
    await assert.rejects(running, StartCancelledError);
    answerLate('too late');
    assert.equal(slow.current, undefined);
  });

  it('the gate shows it (after a question and a sign-in) with Cancel; the page\'s cancelStart intent parses', () => {
    const slowStart = { id: 'w1', agentName: 'Fake', step: 'session/new' };
    const view = gateView({ trusted: true, slowStart });
    assert.equal(view?.kind, 'startWaiting');
    assert.match(view?.kind === 'startWaiting' ? view.message : '', /has not answered session\/new for 5 seconds/);
    const signIn = { agentName: 'Fake', message: 'm', choices: [] };
    assert.equal(gateView({ trusted: true, slowStart, signIn })?.kind, 'signIn');
    const record = { key: 1, mode: 'form' as const, message: 'q', status: 'waiting' as const };
    assert.equal(gateView({ trusted: true, slowStart, question: { agentName: 'Fake', record } })?.kind, 'elicitation', 'a question the agent waits on comes first');
    assert.deepEqual(parseWebviewMessage({ type: 'cancelStart', id: 'w1' }), { type: 'cancelStart', id: 'w1' });
    assert.equal(parseWebviewMessage({ type: 'cancelStart', id: '' }), undefined);
  });
});
