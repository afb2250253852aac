import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chooseBaseline, revertFragments, wholeFileOldText } from '../../../src/edits/baselines';
import { BlobStore } from '../../../src/edits/blobStore';
import { EditsState } from '../../../src/edits/editsState';

const t = (text: string) => ({ text });

describe('baseline selection', () => {
  const current = t('new whole file\n');

  it('takes the first source that has it, in order', () => {
    const all = { disk: t('disk'), session: t('session'), document: t('doc'), snapshot: t('snap'), git: t('git'), current };
    assert.equal(chooseBaseline(all)?.source, 'disk');
    assert.equal(chooseBaseline({ ...all, disk: undefined })?.source, 'session');
    assert.equal(chooseBaseline({ ...all, disk: undefined, session: undefined })?.source, 'document');
    assert.equal(chooseBaseline({ snapshot: t('snap'), git: t('git'), current })?.source, 'snapshot');
    assert.equal(chooseBaseline({ git: t('git'), current })?.content?.text, 'git');
    assert.equal(chooseBaseline({ current }), undefined, 'a change with no trace of before has no baseline');
  });

  it('a whole-file diff beats a snapshot; a fragment never serves', () => {
    const whole = { oldText: 'old whole file\n', newText: 'new whole file\n' };
    const fragment = { oldText: 'old', newText: 'new' };
    assert.deepEqual(chooseBaseline({ diffs: [whole], snapshot: t('snap'), current }), { source: 'diff', content: { text: 'old whole file\n' } });
    assert.equal(chooseBaseline({ diffs: [fragment], snapshot: t('snap'), current })?.source, 'snapshot');
    assert.equal(chooseBaseline({ diffs: [fragment], current }), undefined);
  });

  it('only the first diff of the turn can be the baseline (later ones start from an intermediate state)', () => {
    const first = { oldText: 'a\n', newText: 'b\n' };
    const second = { oldText: 'b\n', newText: 'new whole file\n' };
    assert.equal(chooseBaseline({ diffs: [first, second], current })?.source, undefined);
  });

  it('the snapshot taken before the turn comes right after our own read, before every weaker source', () => {
    const all = { turn: t('turn'), session: t('session'), document: t('doc'), diffs: [{ oldText: 'old whole file\n', newText: 'new whole file\n' }], snapshot: t('snap'), git: t('git'), current };
    assert.equal(chooseBaseline({ ...all, disk: t('disk') })?.source, 'disk');
    assert.deepEqual(chooseBaseline(all), { source: 'turn', content: t('turn') });
    assert.deepEqual(chooseBaseline({ turn: null, current }), { source: 'turn', content: null }, 'absent before the turn: created, exactly');
  });

  it('a whole-file diff is recognised whatever BOM and line ends it carries against the decoded file', () => {
    const bom = '\uFEFF';
    const now = t('new\r\nlines\r\n');
    // the agent read raw UTF-8 (BOM as U+FEFF) and reported LF; Howdah decodes without the BOM, with CRLF
    for (const [oldText, newText] of [
      [`${bom}old\nlines\n`, `${bom}new\nlines\n`],
      [`${bom}old\r\nlines\r\n`, `${bom}new\r\nlines\r\n`],
      ['old\nlines\n', `${bom}new\nlines\n`],
      ['old\nlines\n', `new\r\nlines\r\n`],
    ]) {
      assert.equal(wholeFileOldText({ oldText, newText }, now, undefined), 'old\r\nlines\r\n', JSON.stringify([oldText, newText]));
      assert.deepEqual(chooseBaseline({ diffs: [{ oldText, newText }], current: now }), { source: 'diff', content: { text: 'old\r\nlines\r\n' } });
    }
    // a known earlier version matches with a BOM too
    assert.equal(wholeFileOldText({ oldText: `${bom}a\nb\n`, newText: 'x' }, t('other'), t('a\r\nb\r\n')), 'a\r\nb\r\n');
    // a fragment is still a fragment
    assert.equal(wholeFileOldText({ oldText: `${bom}old`, newText: `${bom}new` }, now, undefined), undefined);
    // fragments with a BOM are taken back out of a CRLF file
    assert.equal(revertFragments('a\r\nNEW\r\nc\r\n', [{ oldText: `${bom}b\n`, newText: `${bom}NEW\n` }]), 'a\r\nb\r\nc\r\n');
  });

  it('whole-file: matches an earlier version, or produced the file as it is now; line endings follow the file', () => {
    assert.equal(wholeFileOldText({ oldText: 'a\nb\n', newText: 'x' }, t('unrelated'), t('a\r\nb\r\n')), 'a\r\nb\r\n');
    assert.equal(wholeFileOldText({ oldText: 'a\n', newText: 'c\nd\n' }, t('c\r\nd\r\n'), undefined), 'a\r\n');
    assert.equal(wholeFileOldText({ oldText: 'a\n', newText: 'c\n' }, t('c\nmore\n'), undefined), undefined);
    assert.equal(wholeFileOldText({ oldText: null, newText: 'c\n' }, t('c\n'), undefined), undefined);
  });

  it('a snapshot read after the write (Codex patches as it announces): the fragments undone from the file now', () => {
    // what codex-acp 0.16.0 reports for apply_patch: the hunk's lines, not the whole file
    const file = 'export function add(a: number, b: number) {\n  return a - b;\n}\n';
    const edited = file.replace('b: number) {', 'b: number) { // changed by Codex');
    const diff = { oldText: 'export function add(a: number, b: number) {\n  return a - b;\n', newText: 'export function add(a: number, b: number) { // changed by Codex\n  return a - b;\n' };
    assert.deepEqual(chooseBaseline({ diffs: [diff], snapshot: t(edited), current: t(edited) }), { source: 'diff', content: { text: file } });
    assert.deepEqual(chooseBaseline({ diffs: [diff], snapshot: t(file), current: t(edited) }), { source: 'snapshot', content: t(file) }, 'read in time: the snapshot');
    assert.equal(chooseBaseline({ diffs: [diff], snapshot: t(edited + edited), current: t(edited + edited) }), undefined, 'the fragment is not unique: no guess');
    assert.equal(chooseBaseline({ diffs: [diff], snapshot: t(edited + edited), git: t('git'), current: t(edited + edited) })?.source, 'git');
    assert.equal(chooseBaseline({ diffs: [{ oldText: 'x', newText: 'x' }], snapshot: t('xyz'), current: t('xyz') })?.source, 'snapshot', 'no change reported');
  });

  it('fragments undone latest first, line endings as in the file; a created file or a missing fragment gives nothing', () => {
    const diffs = [{ oldText: 'a\n', newText: 'b\n' }, { oldText: 'b\nc\n', newText: 'B\nC\n' }];
    assert.equal(revertFragments('x\nB\nC\n', diffs), 'x\na\nc\n');
    assert.equal(revertFragments('x\r\nb\r\n', [{ oldText: 'a\n', newText: 'b\n' }]), 'x\r\na\r\n');
    assert.equal(revertFragments('x\n', [{ oldText: 'a\n', newText: 'b\n' }]), undefined);
    assert.equal(revertFragments('b\n', [{ oldText: null, newText: 'b\n' }]), undefined);
    assert.equal(revertFragments('$&b$1\n', [{ oldText: '$`', newText: 'b' }]), '$&$`$1\n', 'no replacement patterns');
  });

  it('created: a file that appears, or a new-file diff with nothing saying it was there', () => {
    assert.deepEqual(chooseBaseline({ appeared: true, current }), { source: 'created', content: null });
    assert.deepEqual(chooseBaseline({ diffs: [{ newText: 'x' }], current: t('x') }), { source: 'created', content: null });
    assert.equal(chooseBaseline({ diffs: [{ newText: 'x' }], git: t('was there'), current: t('x') })?.source, 'git');
    assert.deepEqual(chooseBaseline({ snapshot: null, current }), { source: 'snapshot', content: null }, 'absent when announced');
  });
});

describe('edits state', () => {
  const h = (c: string) => c.repeat(64);

  it('a checkpoint holds each file as it was before the earliest turn at or after it that changed it', () => {
    const state = new EditsState();
    assert.equal(state.recordCheckpoint('s', 0, '/a', h('1')), true);
    assert.equal(state.recordCheckpoint('s', 0, '/a', h('2')), false, 'first change of the turn wins');
    state.recordCheckpoint('s', 1, '/a', h('3'));
    state.recordCheckpoint('s', 1, '/b', null);
    state.recordCheckpoint('s', 2, '/c', h('4'));
    assert.deepEqual([...state.checkpoint('s', 0)], [['/a', h('1')], ['/b', null], ['/c', h('4')]]);
    assert.deepEqual([...state.checkpoint('s', 1)], [['/a', h('3')], ['/b', null], ['/c', h('4')]]);
    assert.deepEqual([...state.checkpoint('s', 3)], []);
    assert.deepEqual([...state.checkpoint('other', 0)], []);
  });

  it('survives a JSON round trip; damaged input yields what can be read', () => {
    const state = new EditsState();
    state.reviews.set('/a', { path: '/a', session: 's', baseline: h('a'), format: { encoding: 'utf8', bom: true }, source: 'diff', turn: 2, decided: false });
    state.reviews.set('/b', { path: '/b', session: 's', baseline: null, format: { encoding: 'utf8', bom: false }, source: 'created', turn: 2, decided: true });
    state.recordCheckpoint('s', 2, '/a', h('a'), 5);
    state.known.set('/a', { ref: h('b'), origin: 'session' });
    state.known.set('/open', { ref: h('c'), origin: 'document' });
    state.held.set('/held', { session: 's', text: h('d'), original: null });
    const copy = EditsState.fromJSON(JSON.parse(JSON.stringify(state)));
    assert.deepEqual(copy.toJSON(), state.toJSON());
    assert.deepEqual([...copy.referencedBlobs()].sort(), [h('a'), h('b'), h('d')], 'what open documents held is not saved');
    assert.deepEqual([...state.referencedBlobs(true)].sort(), [h('a'), h('b'), h('d')]);
    assert.deepEqual([...state.referencedBlobs()].sort(), [h('a'), h('b'), h('c'), h('d')]);
    assert.deepEqual(copy.held.get('/held'), { session: 's', text: h('d'), original: null });
    assert.equal(EditsState.fromJSON({ version: 99, reviews: [{}] }).reviews.size, 0);
    const damaged = EditsState.fromJSON({ version: 1, reviews: [{ path: '/x', baseline: 'not-a-hash' }, { path: '/y', baseline: null }], sessions: 'nope' });
    assert.deepEqual([...damaged.reviews.keys()], ['/y']);
  });

  it('forgets the oldest sessions past thirty', () => {
    const state = new EditsState();
    for (let i = 0; i < 35; i++) state.recordCheckpoint(`s${i}`, 0, '/a', null, i);
    assert.equal(state.sessions.size, 30);
    assert.ok(!state.sessions.has('s0') && state.sessions.has('s34'));
  });
});

describe('blob store', () => {
  it('stores by hash once, persists, reads back, verifies, and collects what nothing refers to', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-blobs-'));
    const store = new BlobStore(dir, 0);
    const a = store.put(Buffer.from('alpha'));
    assert.equal(store.put(Buffer.from('alpha')), a);
    const b = store.put(Buffer.from('beta'));
    await store.flush();
    assert.equal(store.bytesInMemory, 0, 'over budget: dropped from memory once written');
    assert.equal(Buffer.from((await store.get(a))!).toString(), 'alpha');
    const reopened = new BlobStore(dir);
    assert.equal(Buffer.from((await reopened.get(b))!).toString(), 'beta');
    fs.writeFileSync(path.join(dir, b.slice(0, 2), b.slice(2)), 'tampered');
    assert.equal(await reopened.get(b), undefined, 'damaged content is never handed out');
    assert.equal(await reopened.collect(new Set([a])), 1);
    assert.ok(await reopened.get(a));
  });
});

describe('git HEAD version', () => {
  it('reads a tracked file as committed, and nothing for untracked files or outside a repository', async () => {
    const { gitHeadVersion } = await import('../../../src/edits/gitBaseline');
    const root = path.resolve(__dirname, '..', '..', '..', '..');
    const head = await gitHeadVersion(path.join(root, 'LICENSE'));
    if (head === undefined) return; // no git on this machine, or not a checkout
    assert.ok(head.toString('utf8').length > 0);
    assert.equal(await gitHeadVersion(path.join(root, 'no-such-file-anywhere.txt')), undefined);
    assert.equal(await gitHeadVersion(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-nogit-')), 'x.txt')), undefined);
  });
});
