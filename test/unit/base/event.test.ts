import { strict as assert } from 'node:assert';
import { DisposableStore, liveScopeCount, toDisposable } from '../../../src/base/disposables';
import { AfterTask, Emitter, emitterListenerCount } from '../../../src/base/event';

describe('the event primitive', () => {
  it('calls listeners in order; a listener that unsubscribes during fire changes the next fire, not this one', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    const a = emitter.event((n) => {
      seen.push(`a${n}`);
      a.dispose();
    });
    emitter.event((n) => seen.push(`b${n}`));
    emitter.fire(1);
    emitter.fire(2);
    assert.deepEqual(seen, ['a1', 'b1', 'b2']);
  });

  it('counts live listeners across emitters: subscribing the same function twice is two, disposing twice is one', () => {
    const before = emitterListenerCount();
    const emitter = new Emitter<void>();
    const f = () => undefined;
    const one = emitter.event(f);
    const two = emitter.event(f);
    assert.equal(emitterListenerCount(), before + 2);
    one.dispose();
    one.dispose();
    assert.equal(emitter.listenerCount, 1);
    assert.equal(emitterListenerCount(), before + 1);
    emitter.dispose();
    assert.equal(emitterListenerCount(), before);
    two.dispose();
    assert.equal(emitterListenerCount(), before, 'a subscription disposed after its emitter changes nothing');
    emitter.event(f);
    assert.equal(emitterListenerCount(), before, 'a disposed emitter takes no listeners');
  });
});

describe('scopes (DisposableStore)', () => {
  it('disposes newest first, once, and goes on past a failing item', () => {
    const order: string[] = [];
    const scope = new DisposableStore('test');
    scope.add(toDisposable(() => order.push('first')));
    scope.add({
      dispose: () => {
        order.push('failing');
        throw new Error('boom');
      },
    });
    scope.onDispose(() => order.push('last'));
    assert.throws(() => scope.dispose(), /boom/);
    scope.dispose();
    assert.deepEqual(order, ['last', 'failing', 'first']);
  });

  it('disposes at once what is added after it was disposed', () => {
    const scope = new DisposableStore();
    scope.dispose();
    let disposed = false;
    scope.onDispose(() => (disposed = true));
    assert.ok(disposed);
    assert.equal(scope.size, 0);
  });

  it('a child scope goes with its parent, or earlier on its own and then leaves it; live scopes are counted', () => {
    const before = liveScopeCount();
    const parent = new DisposableStore('parent');
    const early = parent.child('early');
    const late = parent.child('late');
    let lateDisposed = false;
    late.onDispose(() => (lateDisposed = true));
    assert.equal(liveScopeCount(), before + 3);
    early.dispose();
    assert.equal(parent.size, 1, 'the disposed child left its parent');
    parent.dispose();
    assert.ok(lateDisposed && late.isDisposed);
    assert.equal(liveScopeCount(), before);
  });
});

describe('AfterTask', () => {
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('fires once for a burst of changes, in a task after the one that made them', async () => {
    const source = new Emitter<void>();
    const later = new AfterTask(source.event);
    const seen: string[] = [];
    source.event(() => seen.push('on time'));
    later.event(() => seen.push('after'));
    source.fire();
    source.fire();
    source.fire();
    assert.deepEqual(seen, ['on time', 'on time', 'on time'], 'nothing after the task yet');
    await nextTask();
    assert.deepEqual(seen, ['on time', 'on time', 'on time', 'after']);
    source.fire();
    await nextTask();
    assert.deepEqual(seen.filter((s) => s === 'after'), ['after', 'after'], 'a later change fires again');
    later.dispose();
  });

  it('fires nothing once disposed, also for a change made before, and lets go of its source', async () => {
    const source = new Emitter<void>();
    const later = new AfterTask(source.event);
    let fired = 0;
    later.event(() => fired++);
    source.fire();
    later.dispose();
    await nextTask();
    assert.equal(fired, 0);
    assert.equal(source.listenerCount, 0);
  });
});

