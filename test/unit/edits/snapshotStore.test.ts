import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENGINES, sha, TempTree } from './snapshotSupport';

const blobFile = (store: string, hash: string) => path.join(store, 'blobs', hash.slice(0, 2), hash.slice(2));

for (const engine of ENGINES) describe(`turn snapshot: changes, store and stat cache (${engine.name})`, () => {
  let t: TempTree;
  beforeEach(() => (t = new TempTree(engine)));
  afterEach(() => t.dispose());

  it('changesSince: created, modified, deleted, and a rename as a delete plus a create', async () => {
    t.write('keep.txt', 'same');
    t.write('edit.txt', 'old');
    t.write('gone.txt', 'bye');
    t.write('from/name.txt', 'moving');
    const snap = t.snapshot();
    const before = await snap.refresh();
    fs.writeFileSync(t.p('edit.txt'), 'new');
    fs.rmSync(t.p('gone.txt'));
    t.write('new/born.txt', 'hi');
    fs.mkdirSync(t.p('to'));
    fs.renameSync(t.p('from/name.txt'), t.p('to/name.txt'));
    const after = await snap.refresh();
    const changes = after.changesSince(before).map((c) => `${c.change} ${path.relative(t.root, c.path)}`).sort();
    assert.deepEqual(changes, ['created new/born.txt', 'created to/name.txt', 'deleted from/name.txt', 'deleted gone.txt', 'modified edit.txt']);
    assert.deepEqual(before.changesSince(after).map((c) => c.change).sort(), ['created', 'created', 'deleted', 'deleted', 'modified']);
    assert.equal(after.lookup(t.p('to/name.txt')).kind === 'file' && (after.lookup(t.p('to/name.txt')) as { hash: string }).hash, sha('moving'));
  });

  it('changesSince sees a change of a file too large to store by its stat', async () => {
    t.write('big.bin', Buffer.alloc(3000, 7));
    const snap = t.snapshot({ maxFileBytes: 1000 });
    const before = await snap.refresh();
    fs.writeFileSync(t.p('big.bin'), Buffer.alloc(3001, 7));
    assert.deepEqual((await snap.refresh()).changesSince(before), [{ path: t.p('big.bin'), change: 'modified' }]);
  });

  it('the stat cache survives a new instance: its first refresh reads nothing', async () => {
    for (let i = 0; i < 50; i++) t.write(`d${i % 4}/f${i}.txt`, `content ${i}`);
    const first = t.snapshot();
    const m1 = await first.refresh();
    await first.flush();
    const second = t.snapshot();
    const m2 = await second.refresh();
    assert.equal(second.stats().filesRead, 0);
    assert.equal(second.stats().filesSeen, 50);
    assert.deepEqual(m2.changesSince(m1), []);
    assert.deepEqual([...m2.paths()].sort(), [...m1.paths()].sort());
    fs.appendFileSync(t.p('d1/f1.txt'), '!');
    const third = t.snapshot();
    await third.refresh();
    assert.equal(third.stats().filesRead, 1);
  });

  it('a corrupt, truncated or foreign stat cache means a full scan, never a crash', async () => {
    for (let i = 0; i < 10; i++) t.write(`f${i}.txt`, `content ${i}`);
    const s = t.snapshot();
    await s.refresh();
    await s.flush();
    const cache = path.join(t.store, 'stat-cache.bin');
    const good = fs.readFileSync(cache);
    const flipped = Buffer.from(good);
    flipped[Math.floor(good.length / 2)] ^= 0x40;
    // A record that does not parse, under a checksum that matches: the parser must not trust the checksum alone.
    const body = Buffer.from(good.subarray(0, good.length - 32));
    body[16 + body.readUInt32LE(12)] = 9; // the first record's kind
    const resealed = Buffer.concat([body, createHash('sha256').update(body).digest()]);
    const otherVersion = Buffer.from(good);
    otherVersion.writeUInt32LE(99, 8);
    const damaged = [Buffer.from('not a cache at all\n'), good.subarray(0, good.length - 20), flipped, resealed, otherVersion, Buffer.alloc(0)];
    for (const [i, bytes] of damaged.entries()) {
      fs.writeFileSync(cache, bytes);
      const lines: string[] = [];
      const snap = t.snapshot({ log: (l) => lines.push(l) });
      const m = await snap.refresh();
      assert.equal(snap.stats().filesRead, 10, `case ${i}`);
      assert.equal(m.size, 10);
      if (bytes.length) assert.ok(lines.some((l) => l.includes('damaged')), `case ${i} is reported`);
    }
    fs.rmSync(cache);
    const fresh = t.snapshot();
    await fresh.refresh();
    assert.equal(fresh.stats().filesRead, 10);
  });

  it('a path with tabs, newlines and backslashes round-trips through the cache', async function () {
    const name = 'odd\tname\\with\nnewline.txt';
    try {
      t.write(name, 'odd');
    } catch {
      this.skip();
    }
    const s = t.snapshot();
    await s.refresh();
    await s.flush();
    const again = t.snapshot();
    const m = await again.refresh();
    assert.equal(again.stats().filesRead, 0);
    assert.deepEqual(m.lookup(t.p(name)), { kind: 'file', hash: sha('odd'), size: 3 });
  });

  it('read() verifies: a damaged or missing blob is undefined', async () => {
    t.write('a.txt', 'alpha');
    t.write('b.txt', 'beta');
    const snap = t.snapshot();
    await snap.refresh();
    assert.equal((await snap.read(sha('alpha')))?.toString(), 'alpha');
    fs.writeFileSync(blobFile(t.store, sha('alpha')), 'alphb');
    assert.equal(await snap.read(sha('alpha')), undefined);
    fs.rmSync(blobFile(t.store, sha('beta')));
    assert.equal(await snap.read(sha('beta')), undefined);
    assert.equal(await snap.read('../../etc/passwd'), undefined);
  });

  it('collect deletes blobs nothing holds, and keeps the current manifest and what the caller keeps', async () => {
    const f = t.write('a.txt', 'v1');
    const snap = t.snapshot();
    const turnStart = await snap.refresh();
    fs.writeFileSync(f, 'v2');
    await snap.refresh();
    fs.writeFileSync(f, 'v3');
    await snap.refresh();
    assert.equal(await snap.collect(turnStart.hashes()), 1, 'v2 goes');
    assert.equal((await snap.read(sha('v1')))?.toString(), 'v1', 'held by the turn start');
    assert.equal(await snap.read(sha('v2')), undefined);
    assert.equal((await snap.read(sha('v3')))?.toString(), 'v3', 'current');
    assert.equal(await snap.collect(new Set()), 1, 'v1 goes once released');
    assert.equal((await snap.read(sha('v3')))?.toString(), 'v3');
  });

  it('collect before the first refresh keeps what the saved stat cache refers to', async () => {
    t.write('a.txt', 'kept');
    const s = t.snapshot();
    await s.refresh();
    await s.flush();
    const again = t.snapshot();
    assert.equal(await again.collect(new Set()), 0);
    const m = await again.refresh();
    assert.equal(again.stats().filesRead, 0);
    assert.equal((await again.read((m.lookup(t.p('a.txt')) as { hash: string }).hash))?.toString(), 'kept');
  });

  it('a refresh waits for a running collect (and the other way round)', async () => {
    for (let i = 0; i < 30; i++) t.write(`f${i}.txt`, `c${i}`);
    const snap = t.snapshot();
    await snap.refresh();
    for (let i = 0; i < 30; i++) fs.writeFileSync(t.p(`f${i}.txt`), `d${i}`);
    const [, m] = await Promise.all([snap.collect(new Set()), snap.refresh()]);
    for (const p of m.paths()) assert.ok(await snap.read((m.lookup(p) as { hash: string }).hash), p);
  });
});
