import { strict as assert } from 'node:assert';
import type { EntryView, PatchOp, QueuedView, SnapshotMessage } from '../../../src/shared/protocol';
import { TranscriptStore } from '../../../webview/store';
import { FloodGaps } from '../../../src/panel/floodGaps';
import { READY_HEADER as header } from '../support/views';

const agent = (id: number, text: string): EntryView => ({ kind: 'agent', id, text, blocks: [] });
const snapshot = (entries: EntryView[], epoch = 1): SnapshotMessage => ({ type: 'snapshot', epoch, header, entries, plan: [], commands: [], turn: 'idle', queue: [] });
const tail = (first: number, entries: EntryView[], epoch = 1): SnapshotMessage => ({ ...snapshot(entries, epoch), first });
const patch = (epoch: number, ...ops: PatchOp[]) => ({ type: 'patch' as const, epoch, ops });

describe('webview transcript store', () => {
  it('takes a snapshot and reports a reset', () => {
    const store = new TranscriptStore();
    assert.equal(store.apply(snapshot([agent(1, 'a')])), 'applied');
    const changes = store.takeChanges();
    assert.equal(changes.reset, true);
    assert.equal(store.hasChanges(), false);
  });

  it('appends deltas at the matching offset and records appends', () => {
    const store = new TranscriptStore();
    store.apply(snapshot([agent(1, 'ab')]));
    store.takeChanges();
    store.apply(patch(1, { op: 'append', index: 0, offset: 2, delta: 'c' }, { op: 'append', index: 0, offset: 3, delta: 'd' }));
    assert.equal((store.entries[0] as { text: string }).text, 'abcd');
    const changes = store.takeChanges();
    assert.deepEqual([...changes.entries], [[0, 'append']]);
    assert.deepEqual([...changes.appended], [[0, ['c', 'd']]], 'the appended pieces, for renderers that must not read the whole text');
    assert.equal(store.takeChanges().appended.size, 0);
  });

  it('a replace and an append in one frame render as a replace', () => {
    const store = new TranscriptStore();
    store.apply(snapshot([agent(1, 'a')]));
    store.takeChanges();
    store.apply(patch(1, { op: 'append', index: 0, offset: 1, delta: 'b' }, { op: 'entry', index: 0, entry: agent(1, 'x') }, { op: 'append', index: 0, offset: 1, delta: 'y' }));
    const changes = store.takeChanges();
    assert.deepEqual([...changes.entries], [[0, 'replace']]);
    assert.equal(changes.appended.size, 0, 'a replace is read whole');
    assert.equal((store.entries[0] as { text: string }).text, 'xy');
  });

  it('asks for a resync when a patch does not fit', () => {
    const store = new TranscriptStore();
    store.apply(snapshot([agent(1, 'ab'), { kind: 'turn-end', id: 2, stopReason: 'end_turn' }]));
    assert.equal(store.apply(patch(1, { op: 'append', index: 0, offset: 1, delta: 'x' })), 'resync', 'wrong offset');
    assert.equal(store.apply(patch(1, { op: 'append', index: 5, offset: 0, delta: 'x' })), 'resync', 'no such entry');
    assert.equal(store.apply(patch(1, { op: 'append', index: 1, offset: 0, delta: 'x' })), 'resync', 'not a message');
    assert.equal(store.apply(patch(1, { op: 'entry', index: 3, entry: agent(3, '') })), 'resync', 'a gap');
  });

  it('ignores patches of another epoch', () => {
    const store = new TranscriptStore();
    store.apply(snapshot([agent(1, 'a')], 2));
    assert.equal(store.apply(patch(1, { op: 'append', index: 0, offset: 0, delta: 'zzz' })), 'ignored');
    assert.equal((store.entries[0] as { text: string }).text, 'a');
  });

  it('applies header, plan, commands and turn', () => {
    const store = new TranscriptStore();
    store.apply(snapshot([]));
    store.takeChanges();
    store.apply(patch(1, { op: 'turn', turn: 'running' }, { op: 'plan', plan: [{ content: 'p', priority: 'high', status: 'pending' }] }, { op: 'commands', commands: [] }, { op: 'header', header: { ...header, title: 'T' } }));
    const changes = store.takeChanges();
    assert.deepEqual([changes.turn, changes.plan, changes.commands, changes.header], [true, true, true, true]);
    assert.equal(store.turn, 'running');
    assert.equal(store.header.title, 'T');
  });

  it('holds the tail of a long conversation: indexes stay the conversation\'s, older ones are prepended on arrival', () => {
    const store = new TranscriptStore();
    store.apply(tail(100, [agent(100, 'x'), agent(101, 'y')]));
    store.takeChanges();
    assert.deepEqual([store.first, store.length], [100, 102]);
    assert.equal((store.entry(101) as { text: string }).text, 'y');
    assert.equal(store.entry(99), undefined, 'not held');
    assert.equal(store.apply(patch(1, { op: 'append', index: 101, offset: 1, delta: 'z' })), 'applied');
    assert.equal((store.entry(101) as { text: string }).text, 'yz');
    assert.equal(store.apply(patch(1, { op: 'entry', index: 5, entry: agent(5, 'old') }, { op: 'append', index: 7, offset: 3, delta: 'q' })), 'applied', 'changes to entries the host keeps are not a gap');
    assert.deepEqual([...store.takeChanges().entries], [[101, 'append']]);
    assert.equal(store.apply(patch(1, { op: 'entry', index: 103, entry: agent(103, '') })), 'resync', 'a gap at the end still is');
    assert.equal(store.apply({ type: 'earlier', epoch: 1, first: 90, entries: [agent(90, 'stale')] }), 'ignored', 'does not end where the page begins');
    assert.equal(store.apply({ type: 'earlier', epoch: 2, first: 99, entries: [agent(99, 'other epoch')] }), 'ignored');
    assert.equal(store.apply({ type: 'earlier', epoch: 1, first: 98, entries: [agent(98, 'a'), agent(99, 'b')] }), 'applied');
    assert.deepEqual([store.first, store.length, store.takeChanges().earlier], [98, 102, true]);
    assert.equal((store.entry(99) as { text: string }).text, 'b');
  });

  it('forgets entries before an index, keeping conversation indexes; patches to them are then the host\'s', () => {
    const store = new TranscriptStore();
    store.apply(snapshot([agent(0, 'a'), agent(1, 'b'), agent(2, 'c')]));
    store.takeChanges();
    store.forget(2);
    assert.deepEqual([store.first, store.length, store.entries.length], [2, 3, 1]);
    store.forget(1);
    assert.equal(store.first, 2, 'never takes back');
    assert.equal(store.apply(patch(1, { op: 'append', index: 0, offset: 1, delta: 'x' })), 'applied');
    assert.equal(store.entries.length, 1);
    store.forget(99);
    assert.deepEqual([store.first, store.length], [3, 3], 'at most everything');
  });

  it('takes the queue from a snapshot and replaces it with each queue patch, marking it changed', () => {
    const store = new TranscriptStore();
    const queued = (id: number, text: string, attachments: string[] = []): QueuedView => ({ id, text, attachments });
    store.apply({ ...snapshot([]), turn: 'running', queue: [queued(1, 'first', ['a.ts']), queued(2, 'second')] });
    const atSnapshot = store.takeChanges();
    assert.deepEqual([atSnapshot.reset, atSnapshot.queue], [true, true]);
    assert.deepEqual(store.queue.map((q) => q.id), [1, 2]);
    assert.equal(store.hasChanges(), false);
    store.apply(patch(1, { op: 'queue', queue: [queued(2, 'second, edited')] }));
    assert.equal(store.hasChanges(), true, 'a queue patch alone is something to render');
    const changes = store.takeChanges();
    assert.deepEqual([changes.queue, changes.turn, changes.entries.size], [true, false, 0]);
    assert.deepEqual(store.queue, [queued(2, 'second, edited')]);
    assert.equal(store.apply(patch(7, { op: 'queue', queue: [] })), 'ignored', 'another epoch');
    assert.equal(store.queue.length, 1);
  });

  it('holds a flooding answer as its own text, a gap and the newest text; fills close the gap and the newest text joins', () => {
    const store = new TranscriptStore();
    store.apply(snapshot([agent(1, 'ab')]));
    store.takeChanges();
    const text = () => (store.entries[0] as { text: string }).text;
    assert.equal(store.apply(patch(1, { op: 'append', index: 0, offset: 2, skip: 5, delta: 'HI' })), 'applied');
    assert.equal(text(), 'ab', 'the entry keeps the text it has, to be followed by the gap');
    assert.deepEqual(store.gap(0), { skip: 5, newest: 'HI' });
    let changes = store.takeChanges();
    assert.equal(changes.entries.size, 0);
    assert.deepEqual([...changes.gaps], [[0, { skip: 5, reset: true, newest: ['HI'], closed: false }]]);
    // the newest text grows at the end of the whole text (2 + 5 + 2)
    assert.equal(store.apply(patch(1, { op: 'append', index: 0, offset: 9, delta: 'J' })), 'applied');
    assert.equal(store.apply(patch(1, { op: 'fill', index: 0, offset: 2, delta: 'cde' })), 'applied');
    changes = store.takeChanges();
    assert.deepEqual([...changes.gaps], [[0, { skip: 2, reset: false, newest: ['J'], closed: false }]]);
    assert.deepEqual([...changes.appended], [[0, ['cde']]]);
    assert.equal(store.apply(patch(1, { op: 'fill', index: 0, offset: 5, delta: 'fg' })), 'applied');
    changes = store.takeChanges();
    assert.equal(text(), 'abcdefgHIJ');
    assert.equal(store.gap(0), undefined);
    assert.deepEqual([...changes.appended], [[0, ['fg', 'HIJ']]], 'the newest text follows the last fill');
    assert.equal(changes.gaps.get(0)?.closed, true);
    assert.equal(changes.gaps.get(0)?.joined, 1, 'the piece that is the newest text (the page joins what it shows of it)');
    // appended after the close in the same frame: after the newest text, which stays where it joined
    store.apply(patch(1, { op: 'append', index: 0, offset: 10, skip: 2, delta: 'KL' }));
    store.apply(patch(1, { op: 'fill', index: 0, offset: 10, delta: 'mn' }));
    store.apply(patch(1, { op: 'append', index: 0, offset: 14, delta: 'O' }));
    changes = store.takeChanges();
    assert.equal(text(), 'abcdefgHIJmnKLO');
    assert.deepEqual([...changes.appended], [[0, ['mn', 'KL', 'O']]]);
    assert.deepEqual(changes.gaps.get(0), { skip: 0, reset: true, newest: ['KL'], closed: true, joined: 1 });
  });

  it('asks for a resync when a flood’s op does not fit what the page holds', () => {
    const fresh = () => {
      const store = new TranscriptStore();
      store.apply(snapshot([agent(1, 'ab')]));
      store.apply(patch(1, { op: 'append', index: 0, offset: 2, skip: 5, delta: 'HI' }));
      return store;
    };
    assert.equal(fresh().apply(patch(1, { op: 'append', index: 0, offset: 1, skip: 3, delta: 'X' })), 'resync', 'a skip from elsewhere than the text’s end');
    assert.equal(fresh().apply(patch(1, { op: 'append', index: 0, offset: 4, delta: 'X' })), 'resync', 'an append not after the newest text');
    assert.equal(fresh().apply(patch(1, { op: 'fill', index: 0, offset: 3, delta: 'c' })), 'resync', 'a fill not after the text');
    assert.equal(fresh().apply(patch(1, { op: 'fill', index: 0, offset: 2, delta: 'cdefgh' })), 'resync', 'a fill longer than the gap');
    const none = new TranscriptStore();
    none.apply(snapshot([agent(1, 'ab')]));
    assert.equal(none.apply(patch(1, { op: 'fill', index: 0, offset: 2, delta: 'c' })), 'resync', 'a fill without a gap');
  });

  it('closes a gap when the entry is sent whole, and forgets it with a snapshot', () => {
    const store = new TranscriptStore();
    store.apply(snapshot([agent(1, 'ab')]));
    store.apply(patch(1, { op: 'append', index: 0, offset: 2, skip: 5, delta: 'HI' }));
    store.takeChanges();
    store.apply(patch(1, { op: 'entry', index: 0, entry: agent(1, 'abcdefgHI') }));
    assert.equal(store.gap(0), undefined);
    assert.equal(store.takeChanges().gaps.get(0)?.closed, true);
    store.apply(patch(1, { op: 'append', index: 0, offset: 9, skip: 5, delta: 'XY' }));
    store.apply(snapshot([agent(1, 'whole')], 2));
    assert.equal(store.gap(0), undefined);
  });

  it('ends with the host’s text from any flood of appends and fills (floodGaps.ts on the host)', () => {
    const store = new TranscriptStore();
    store.apply(snapshot([agent(1, '')]));
    const floods = new FloodGaps();
    let whole = '';
    let part = 0;
    let skipped = 0;
    const send = (ops: PatchOp[]) => assert.equal(store.apply(patch(1, ...ops)), 'applied');
    for (const size of [200, 90_000, 300, 150_000, 70_000, 10, 120_000]) {
      let delta = '';
      while (delta.length < size) delta += `Part ${part++} of the answer.\n\n`;
      delta = delta.slice(0, size);
      const op = floods.append(0, whole.length, delta, () => whole + delta);
      if (op.skip !== undefined) skipped++;
      send([op]);
      whole += delta;
      send(floods.fills(30_000));
    }
    while (floods.open) send(floods.fills(30_000));
    assert.equal(skipped, 4, 'each flood skipped');
    assert.equal(store.gap(0), undefined);
    assert.equal((store.entries[0] as { text: string }).text, whole);
  });
});
