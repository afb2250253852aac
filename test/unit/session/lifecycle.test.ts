import { strict as assert } from 'node:assert';
import { IllegalTransitionError, SessionLifecycle, type LifecycleChange } from '../../../src/session/lifecycle';

const crash = { message: 'Fake exited with code 3', exitCode: 3, signal: null, stderrTail: ['boom'] };

describe('session lifecycle', () => {
  it('walks a session from start through a turn, a crash and a restart to a user stop, saying each change', () => {
    const life = new SessionLifecycle();
    const seen: string[] = [];
    life.onDidChange(({ old, current }: LifecycleChange) => seen.push(`${old.kind}>${current.kind}`));
    life.signingIn();
    life.signedIn();
    life.ready();
    life.prompting(0);
    assert.ok(life.isRunning);
    life.crashed(crash);
    assert.ok(life.isDown);
    assert.equal(life.downReason, 'Fake exited with code 3');
    life.promptEnded();
    life.restarting();
    assert.ok(life.isStarting);
    life.signingIn();
    assert.deepEqual(life.state, { kind: 'signing-in', restart: true });
    life.signedIn();
    life.ready();
    life.stopping({ kind: 'user' });
    life.stopped({ kind: 'user' });
    assert.deepEqual(seen, [
      'starting>signing-in',
      'signing-in>starting',
      'starting>ready',
      'ready>prompting',
      'prompting>crashed',
      'crashed>restarting',
      'restarting>signing-in',
      'signing-in>restarting',
      'restarting>ready',
      'ready>stopping',
      'stopping>stopped',
    ]);
  });

  it('refuses transitions the diagram does not have, and leaves the state as it was', () => {
    const life = new SessionLifecycle({ kind: 'stopped', reason: { kind: 'restored' } });
    assert.throws(() => life.prompting(0), IllegalTransitionError);
    assert.throws(() => life.crashed(crash), /cannot go from stopped to crashed/);
    assert.throws(() => life.ready(), IllegalTransitionError);
    assert.deepEqual(life.state, { kind: 'stopped', reason: { kind: 'restored' } });
    assert.equal(life.downReason, undefined, 'a restored conversation is not an error');
    life.restarting();
    life.stopped({ kind: 'start-failed', message: 'spawn ENOENT' });
    assert.equal(life.downReason, 'spawn ENOENT');
    assert.throws(() => new SessionLifecycle().restarting(), IllegalTransitionError, 'a first start is not a restart');
  });

  it('a turn that ends after the agent went down changes nothing', () => {
    const life = new SessionLifecycle();
    life.ready();
    life.prompting(2);
    life.stopping({ kind: 'window-closing' });
    life.promptEnded();
    assert.deepEqual(life.state, { kind: 'stopping', reason: { kind: 'window-closing' } });
  });
});
