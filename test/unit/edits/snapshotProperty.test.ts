import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import type { Manifest } from '../../../src/edits/snapshot';
import { age, ENGINES, sha, TempTree } from './snapshotSupport';

const PATHS = ['a.txt', 'b.txt', 'd/c.txt', 'd/e/f.txt', 'd/e/g.bin', 'h/i.txt'];

type Op =
  /** `aged`: its mtime then set an hour back, so only the stat cache (not the racy rule) decides whether to read it. */
  | { op: 'write'; path: string; bytes: Uint8Array; aged: boolean }
  /** Same length, other bytes, then the old mtime put back: only ctime (or the racy rule) can tell. */
  | { op: 'sameSize'; path: string; salt: number }
  | { op: 'delete'; path: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'refresh' };

const anyPath = fc.constantFrom(...PATHS);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('write' as const), path: anyPath, bytes: fc.uint8Array({ maxLength: 48 }), aged: fc.boolean() }),
  fc.record({ op: fc.constant('sameSize' as const), path: anyPath, salt: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ op: fc.constant('delete' as const), path: anyPath }),
  fc.record({ op: fc.constant('rename' as const), from: anyPath, to: anyPath }),
  fc.constant({ op: 'refresh' as const }),
);

function apply(t: TempTree, o: Op): void {
  switch (o.op) {
    case 'write': {
      fs.mkdirSync(path.dirname(t.p(o.path)), { recursive: true });
      fs.writeFileSync(t.p(o.path), o.bytes);
      if (o.aged) age(t.p(o.path));
      return;
    }
    case 'sameSize': {
      const file = t.p(o.path);
      if (!fs.existsSync(file)) return;
      const st = fs.statSync(file, { bigint: true });
      const bytes = fs.readFileSync(file).map((b) => b ^ o.salt);
      fs.writeFileSync(file, bytes);
      const seconds = (ns: bigint) => Number(ns / 1000n) / 1e6;
      fs.utimesSync(file, seconds(st.atimeNs), seconds(st.mtimeNs));
      return;
    }
    case 'delete':
      fs.rmSync(t.p(o.path), { force: true });
      return;
    case 'rename': {
      if (o.from === o.to || !fs.existsSync(t.p(o.from))) return;
      fs.mkdirSync(path.dirname(t.p(o.to)), { recursive: true });
      fs.renameSync(t.p(o.from), t.p(o.to));
      return;
    }
    case 'refresh':
      return;
  }
}

for (const engine of ENGINES) describe(`turn snapshot: property (${engine.name})`, () => {
  it('after any sequence of changes and refreshes, the manifest holds every file exactly, and the turn start restores the tree', async function () {
    this.timeout(120_000);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 24 }), fc.array(op, { maxLength: 8 }), async (ops, setup) => {
        const t = new TempTree(engine);
        try {
          for (const o of setup) apply(t, o);
          const snap = t.snapshot();
          const turnAt = Math.floor(ops.length / 2);
          let before: Manifest | undefined;
          let treeThen = new Map<string, string>();
          await snap.refresh();
          for (let i = 0; i < ops.length; i++) {
            if (i === turnAt) {
              before = await snap.refresh();
              treeThen = t.files();
            }
            apply(t, ops[i]);
            if (ops[i].op === 'refresh') await snap.refresh();
          }
          if (!before) {
            before = await snap.refresh();
            treeThen = t.files();
          }
          const start: Manifest = before;

          // Every file recorded exactly as it is now, its bytes retrievable.
          const now = await snap.refresh();
          const tree = t.files();
          assert.deepEqual([...now.paths()].map((p) => path.relative(t.root, p)).sort(), [...tree.keys()].sort());
          for (const [rel, content] of tree) {
            const bytes = Buffer.from(content, 'latin1');
            const got = now.lookup(t.p(rel));
            assert.deepEqual(got, { kind: 'file', hash: sha(bytes), size: bytes.length }, rel);
            assert.ok((await snap.read(sha(bytes)))?.equals(bytes), rel);
          }

          // Restoring every file from the turn start's manifest gives the tree of that moment, byte for byte.
          const changed = now.changesSince(start);
          for (const { path: p, change } of changed) {
            if (change === 'created') {
              fs.rmSync(p);
              continue;
            }
            const was = start.lookup(p);
            assert.equal(was.kind, 'file');
            const bytes = await snap.read((was as { hash: string }).hash);
            assert.ok(bytes, `blob of ${p}`);
            fs.mkdirSync(path.dirname(p), { recursive: true });
            fs.writeFileSync(p, bytes);
          }
          assert.deepEqual(t.files(), treeThen);
        } finally {
          await t.dispose();
        }
      }),
      { numRuns: 60 },
    );
  });
});
