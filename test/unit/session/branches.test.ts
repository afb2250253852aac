import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { BranchTree } from '../../../src/session/branches';

/** "Branch i of n" as the panel shows it, for `key`'s turn `turn`. */
function label(tree: BranchTree, key: string, turn: number): string | undefined {
  const p = tree.alternativesAt(key, turn);
  return p && `${p.index + 1}/${p.keys.length}`;
}

describe('branch tree', () => {
  it('an edit makes two alternatives of that turn, and nothing before or after it', () => {
    const tree = new BranchTree();
    tree.add('b', 'a', 1);
    assert.equal(label(tree, 'a', 1), '1/2');
    assert.equal(label(tree, 'b', 1), '2/2');
    assert.deepEqual(tree.alternativesAt('b', 1)?.keys, ['a', 'b']);
    assert.equal(label(tree, 'a', 0), undefined, 'the turn before the edit is shared');
    assert.equal(label(tree, 'b', 2), undefined, 'a later turn of the branch has no alternative');
    assert.deepEqual([...tree.positionsIn('b').keys()], [1]);
  });

  it('editing a message that was already edited adds a third alternative, whichever version was edited', () => {
    const tree = new BranchTree();
    tree.add('b', 'a', 1);
    tree.add('c', 'b', 1);
    tree.add('d', 'a', 1);
    assert.deepEqual(tree.alternativesAt('c', 1)?.keys, ['a', 'b', 'c', 'd']);
    assert.equal(label(tree, 'd', 1), '4/4');
  });

  it('an edit of a later turn of a branch is its own point; the earlier point still shows in it', () => {
    const tree = new BranchTree();
    tree.add('b', 'a', 1);
    tree.add('c', 'b', 3);
    assert.equal(label(tree, 'c', 1), '2/2', 'c shows b’s version of turn 1');
    assert.deepEqual(tree.alternativesAt('c', 1)?.keys, ['a', 'b']);
    assert.equal(label(tree, 'c', 3), '2/2');
    assert.deepEqual(tree.alternativesAt('c', 3)?.keys, ['b', 'c']);
    assert.equal(label(tree, 'a', 3), undefined, 'a never had b’s turn 3');
    assert.deepEqual([...tree.positionsIn('c').entries()].map(([t, p]) => [t, p.index]), [[1, 1], [3, 1]]);
  });

  it('an edit of an earlier turn than the branch point starts from the message the branch copied', () => {
    const tree = new BranchTree();
    tree.add('b', 'a', 3);
    tree.add('c', 'b', 1);
    // c's turn 1 replaces a's turn 1 (b copied it): a and c are the alternatives, b is a's side.
    assert.deepEqual(tree.alternativesAt('b', 1)?.keys, ['a', 'c']);
    assert.equal(label(tree, 'b', 1), '1/2');
  });

  it('deleting a branch keeps its branches where they were, hung on its parent', () => {
    const tree = new BranchTree();
    tree.add('b', 'a', 1);
    tree.add('c', 'b', 3);
    tree.add('d', 'b', 1);
    tree.remove('b');
    assert.equal(tree.has('b'), false);
    assert.deepEqual(tree.alternativesAt('c', 1)?.keys, ['a', 'c', 'd'], 'c still differs from a at turn 1 (b’s edit it copied)');
    assert.equal(label(tree, 'c', 3), undefined, 'c’s own turn 3 has no alternative any more');
  });

  it('deleting the first conversation makes its oldest branch the root', () => {
    const tree = new BranchTree();
    tree.add('b', 'a', 2);
    tree.add('c', 'a', 4);
    tree.remove('a');
    assert.deepEqual(tree.alternativesAt('c', 2)?.keys, ['b', 'c']);
    assert.equal(label(tree, 'b', 4), undefined);
    tree.remove('b');
    assert.equal(tree.alternativesAt('c', 2), undefined);
    assert.ok(tree.has('c'));
  });

  it('refuses a loop and survives a damaged file', () => {
    const tree = new BranchTree();
    tree.add('b', 'a', 1);
    assert.throws(() => tree.add('a', 'b', 0), /cannot branch from itself/);
    assert.throws(() => tree.add('a', 'a', 0));
    const back = BranchTree.parse(JSON.parse(JSON.stringify(tree)));
    assert.deepEqual(back.alternativesAt('b', 1)?.keys, ['a', 'b']);
    assert.equal(BranchTree.parse('nonsense').size, 0);
    const damaged = BranchTree.parse({ version: 1, records: [{ key: 'x', parent: 'gone', at: 1, order: 0 }, { key: 'y', order: 'late' }, { key: 'p', parent: 'q', order: 1 }] });
    assert.deepEqual(damaged.keys(), ['x'], 'unreadable records are dropped, one whose parent is gone becomes a root');
    assert.equal(damaged.alternativesAt('x', 1), undefined);
    const looped = BranchTree.parse({ version: 1, records: [{ key: 'm', parent: 'n', at: 1, order: 0 }, { key: 'n', parent: 'm', at: 1, order: 1 }] });
    assert.deepEqual(looped.alternativesAt('m', 1)?.keys, ['m', 'n'], 'a loop in a file is broken at its first record, not followed forever');
  });

  it('whatever is added and removed, every conversation is one of its own alternatives, and alternatives agree', () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('add' as const), parent: fc.nat(7), at: fc.nat(4) }),
      fc.record({ op: fc.constant('remove' as const), which: fc.nat(7) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const tree = new BranchTree();
        let next = 1;
        tree.add('k1', 'k0', 0);
        for (const s of steps) {
          const keys = tree.keys();
          if (keys.length === 0) break;
          if (s.op === 'add') tree.add(`k${++next}`, keys[s.parent % keys.length], s.at);
          else tree.remove(keys[s.which % keys.length]);
        }
        for (const key of tree.keys()) {
          for (const [turn, position] of tree.positionsIn(key)) {
            const mine = position.keys[position.index];
            assert.ok(mine, 'the conversation on screen is among its alternatives');
            for (const other of position.keys) assert.deepEqual(tree.alternativesAt(other, turn)?.keys, position.keys, 'each alternative lists the same set');
          }
        }
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});
