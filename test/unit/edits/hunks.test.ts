import { strict as assert } from 'node:assert';
import { prng } from '../support/random';
import { acceptHunk, computeHunks, countChanges, editsBetween, findHunk, hunkAtLine, hunkRef, rejectEdit, rejectHunk, splitLines, type Hunk } from '../../../src/edits/hunks';

const rng = prng;

type Segment = { same: string[] } | { base: string[]; agent: string[] };

/**
 * A baseline and an agent text built from segments: unchanged runs of unique lines, and edits (replace, insert,
 * delete, line-ending flips, a lost final newline) separated by at least one unchanged line, so every edit is
 * exactly one hunk and the alignment is unambiguous.
 */
function scenario(random: () => number, id: number, maxEdits = 8): Segment[] {
  let n = 0;
  const eol = () => (random() < 0.25 ? '\r\n' : '\n');
  const fresh = (tag: string) => `${tag}${id}-${n++} ${Math.floor(random() * 1e6)}${eol()}`;
  const run = (k: number, tag: string) => Array.from({ length: k }, () => fresh(tag));
  const segments: Segment[] = [{ same: run(1 + Math.floor(random() * 3), 's') }];
  const edits = 1 + Math.floor(random() * maxEdits);
  for (let e = 0; e < edits; e++) {
    const r = random();
    if (r < 0.3) segments.push({ base: run(1 + Math.floor(random() * 3), 'b'), agent: run(1 + Math.floor(random() * 3), 'a') });
    else if (r < 0.5) segments.push({ base: [], agent: run(1 + Math.floor(random() * 3), 'i') });
    else if (r < 0.7) segments.push({ base: run(1 + Math.floor(random() * 3), 'd'), agent: [] });
    else {
      const line = fresh('e');
      const flipped = line.endsWith('\r\n') ? line.slice(0, -2) + '\n' : line.slice(0, -1) + '\r\n';
      segments.push({ base: [line], agent: [flipped] });
    }
    segments.push({ same: run(1 + Math.floor(random() * 3), 's') });
  }
  const last = segments[segments.length - 1] as { same: string[] };
  if (random() < 0.3 && last.same.length > 1) {
    // The last line loses (or gains) its final newline (an unchanged line stays before it, keeping edits apart).
    const line = last.same.pop()!;
    const bare = line.replace(/\r?\n$/, '');
    segments.push(random() < 0.5 ? { base: [line], agent: [bare] } : { base: [bare], agent: [line] });
  }
  return segments;
}

const join = (segments: Segment[], side: 'base' | 'agent') => segments.flatMap((s) => ('same' in s ? s.same : s[side]));

/**
 * Reads `lines` as the segments with each edit as either its baseline or its agent text; returns each edit's choice
 * and where it starts, or undefined if the text is anything else.
 */
function parse(segments: Segment[], lines: string[]): { choice: 'base' | 'agent'; start: number }[] | undefined {
  const go = (si: number, at: number): { choice: 'base' | 'agent'; start: number }[] | undefined => {
    if (si === segments.length) return at === lines.length ? [] : undefined;
    const s = segments[si];
    const matches = (want: string[]) => want.every((l, k) => lines[at + k] === l) && at + want.length <= lines.length;
    if ('same' in s) return matches(s.same) ? go(si + 1, at + s.same.length) : undefined;
    for (const choice of ['agent', 'base'] as const) {
      if (!matches(s[choice])) continue;
      const rest = go(si + 1, at + s[choice].length);
      if (rest) return [{ choice, start: at }, ...rest];
    }
    return undefined;
  };
  return go(0, 0);
}

describe('hunks', () => {
  it('splits lines keeping terminators, CRLF and a last line without newline', () => {
    assert.deepEqual(splitLines('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
    assert.deepEqual(splitLines('a\n'), ['a\n']);
    assert.deepEqual(splitLines(''), []);
  });

  it('finds replacements, insertions, deletions, and line-ending changes', () => {
    const base = splitLines('one\ntwo\nthree\nfour\nfive\n');
    const cur = splitLines('one\nTWO\nthree\nfour\r\nfive\nsix\n');
    assert.deepEqual(computeHunks(base, cur), [
      { baseStart: 1, baseEnd: 2, curStart: 1, curEnd: 2 },
      { baseStart: 3, baseEnd: 4, curStart: 3, curEnd: 4 },
      { baseStart: 5, baseEnd: 5, curStart: 5, curEnd: 6 },
    ]);
    assert.deepEqual(countChanges(computeHunks(base, cur)), { added: 3, removed: 2 });
    assert.deepEqual(computeHunks(splitLines('a\nb'), splitLines('a\nb\n')), [{ baseStart: 1, baseEnd: 2, curStart: 1, curEnd: 2 }]);
  });

  it('finds the hunk at a cursor line, including a pure deletion', () => {
    const hunks: Hunk[] = [
      { baseStart: 1, baseEnd: 2, curStart: 1, curEnd: 3 },
      { baseStart: 5, baseEnd: 7, curStart: 6, curEnd: 6 },
    ];
    assert.equal(hunkAtLine(hunks, 2), hunks[0]);
    assert.equal(hunkAtLine(hunks, 6), hunks[1]);
    assert.equal(hunkAtLine(hunks, 5), hunks[1]);
    assert.equal(hunkAtLine(hunks, 0), undefined);
  });

  it('property: any sequence of accepts and rejects ends with every region exactly its baseline or the agent text', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const random = rng(seed);
      // Every fourth case is long enough for the unique-line anchoring to take part.
      const segments = scenario(random, seed, seed % 4 === 0 ? 60 : 8);
      let base = join(segments, 'base');
      let cur = join(segments, 'agent');
      const edits = segments.filter((s) => !('same' in s)).length;
      const decided = new Map<number, 'base' | 'agent'>();
      assert.equal(computeHunks(base, cur).length, edits, `seed ${seed}: one hunk per edit`);
      for (let step = 0; ; step++) {
        const hunks = computeHunks(base, cur);
        assert.equal(hunks.length, edits - decided.size, `seed ${seed} step ${step}: each decision resolves one hunk`);
        if (hunks.length === 0) break;
        const hunk = hunks[Math.floor(random() * hunks.length)];
        const regions = parse(segments, cur)!;
        const index = regions.findIndex((r) => r.start === hunk.curStart);
        assert.ok(index >= 0 && !decided.has(index), `seed ${seed}: the hunk is an undecided edit`);
        if (random() < 0.5) {
          base = acceptHunk(base, cur, hunk);
          decided.set(index, 'agent');
        } else {
          const edit = rejectEdit(base, cur, hunk);
          const text = cur.join('');
          const next = rejectHunk(base, cur, hunk);
          assert.equal(text.slice(0, edit.start) + edit.text + text.slice(edit.end), next.join(''), `seed ${seed}: the text edit is the line edit`);
          cur = next;
          decided.set(index, 'base');
        }
        const inCur = parse(segments, cur);
        const inBase = parse(segments, base);
        assert.ok(inCur && inBase, `seed ${seed} step ${step}: both sides are still made of whole regions`);
        for (const [i, choice] of decided) {
          assert.equal(inCur[i].choice, choice, `seed ${seed}: a decided region keeps its decision (current)`);
          assert.equal(inBase[i].choice, choice, `seed ${seed}: a decided region keeps its decision (baseline)`);
        }
        inCur.forEach((r, i) => decided.has(i) || assert.equal(r.choice, 'agent', `seed ${seed}: undecided regions keep the agent text`));
        inBase.forEach((r, i) => decided.has(i) || assert.equal(r.choice, 'base', `seed ${seed}: undecided regions keep the baseline`));
      }
      assert.equal(base.join(''), cur.join(''), `seed ${seed}: nothing left means both sides agree`);
    }
  });

  it('property: with repeated lines, all-accept ends at the agent text and all-reject at the baseline, exactly', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = rng(seed * 7919);
      const alphabet = ['x\n', 'y\n', 'x\r\n', '}\n', '\n', 'z'];
      const pick = () => alphabet[Math.floor(random() * (alphabet.length - 1))];
      const base0 = Array.from({ length: Math.floor(random() * 30) }, pick);
      const cur0 = base0.filter(() => random() > 0.2).flatMap((l) => (random() < 0.2 ? [l, pick()] : [l]));
      if (random() < 0.5) cur0.push('z');
      for (const mode of ['accept', 'reject', 'mixed'] as const) {
        let base = [...base0];
        let cur = [...cur0];
        for (let guard = 0; ; guard++) {
          assert.ok(guard <= base0.length + cur0.length + 2, `seed ${seed} ${mode}: terminates`);
          const hunks = computeHunks(base, cur);
          if (hunks.length === 0) break;
          const hunk = hunks[Math.floor(random() * hunks.length)];
          const accept = mode === 'accept' || (mode === 'mixed' && random() < 0.5);
          if (accept) base = acceptHunk(base, cur, hunk);
          else cur = rejectHunk(base, cur, hunk);
        }
        assert.equal(base.join(''), cur.join(''));
        if (mode === 'accept') assert.equal(cur.join(''), cur0.join(''), `seed ${seed}: all accepted is the agent text`);
        if (mode === 'reject') assert.equal(cur.join(''), base0.join(''), `seed ${seed}: all rejected is the baseline`);
      }
    }
  });

  it('a lens computed before the hunk above it was accepted or rejected still finds its hunk (VS Code shows lenses a refresh late)', () => {
    const base = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`);
    const cur = [...base];
    cur.splice(1, 1, 'line 2 changed\n', 'line 2b added\n');
    cur[20] = 'line 20 changed\n';
    const lenses = computeHunks(base, cur).map((h) => hunkRef(base, cur, h));
    assert.equal(lenses.length, 2);

    // Accepting the first moves the second's baseline lines by one: the stale lens's ranges match nothing any more.
    const accepted = acceptHunk(base, cur, lenses[0]);
    const afterAccept = computeHunks(accepted, cur);
    assert.ok(!afterAccept.some((h) => h.baseStart === lenses[1].baseStart && h.curStart === lenses[1].curStart && h.baseEnd === lenses[1].baseEnd));
    assert.deepEqual(findHunk(afterAccept, accepted, cur, lenses[1]), afterAccept[0]);
    // The same ranges without their lines (a caller's own hunk) must match exactly, so they find nothing.
    const { removed: _r, added: _a, ...bare } = lenses[1];
    assert.equal(findHunk(afterAccept, accepted, cur, bare), undefined);

    // Rejecting the first moves the second's current lines.
    const rejected = rejectHunk(base, cur, lenses[0]);
    assert.deepEqual(findHunk(computeHunks(base, rejected), base, rejected, lenses[1]), computeHunks(base, rejected)[0]);

    // A hunk whose lines changed since (the user typed in it) is another change: the old lens finds nothing.
    const typed = [...cur];
    typed[20] = 'line 20 changed, then edited by the user\n';
    assert.equal(findHunk(computeHunks(base, typed), base, typed, lenses[1]), undefined);
  });

  it('the same change in two places: a stale lens never takes the other one', () => {
    const base = Array.from({ length: 40 }, (_, i) => (i % 10 === 5 ? 'TODO\n' : `line ${i}\n`));
    const cur = base.map((l) => (l === 'TODO\n' ? 'DONE\n' : l));
    const lenses = computeHunks(base, cur).map((h) => hunkRef(base, cur, h));
    assert.equal(lenses.length, 4);
    // Rejected, then its lens clicked again (a double click on a lens not yet refreshed): nothing happens.
    const rejected = rejectHunk(base, cur, lenses[1]);
    let now = computeHunks(base, rejected);
    assert.equal(findHunk(now, base, rejected, lenses[1]), undefined);
    assert.deepEqual(findHunk(now, base, rejected, lenses[2]), now[1]);
    // The same for an accept that adds lines (the later hunks' baseline lines move).
    const grown = base.map((l) => (l === 'TODO\n' ? 'DONE\nAND MORE\n' : l)).flatMap((l) => splitLines(l));
    const grownLenses = computeHunks(base, grown).map((h) => hunkRef(base, grown, h));
    const accepted = acceptHunk(base, grown, grownLenses[1]);
    now = computeHunks(accepted, grown);
    assert.equal(findHunk(now, accepted, grown, grownLenses[1]), undefined);
    assert.deepEqual(findHunk(now, accepted, grown, grownLenses[3]), now[2]);
  });

  it('property: lenses computed once find their own region after decisions through other stale lenses, and never another region', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = rng(seed * 104729);
      const segments = scenario(random, seed);
      let base = join(segments, 'base');
      let cur = join(segments, 'agent');
      const regionAt = (h: Hunk) => parse(segments, cur)!.findIndex((r) => r.start === h.curStart);
      const lenses = computeHunks(base, cur).map((h) => ({ ref: hunkRef(base, cur, h), region: regionAt(h) }));
      // All accepts, all rejects: each stale lens finds its hunk. Mixed: it finds its hunk or, when decisions of both
      // kinds above it moved both its starts, nothing (the user is told; the refreshed lens works).
      const mode = (['accept', 'reject', 'mixed'] as const)[seed % 3];
      for (const { ref, region } of lenses.sort(() => random() - 0.5)) {
        const hunk = findHunk(computeHunks(base, cur), base, cur, ref);
        if (mode !== 'mixed') assert.ok(hunk, `seed ${seed}: the stale lens of region ${region} finds a hunk`);
        if (!hunk) continue;
        assert.equal(regionAt(hunk), region, `seed ${seed}: ... its own region`);
        const accept = mode === 'accept' || (mode === 'mixed' && random() < 0.5);
        if (accept) base = acceptHunk(base, cur, hunk);
        else cur = rejectHunk(base, cur, hunk);
        assert.equal(findHunk(computeHunks(base, cur), base, cur, ref), undefined, `seed ${seed}: a decided lens finds nothing`);
      }
      if (mode !== 'mixed') assert.equal(base.join(''), cur.join(''), `seed ${seed}: every region decided`);
    }
  });

  it('property: editsBetween turns one text into the other exactly', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = rng(seed * 31);
      const segments = scenario(random, seed);
      const from = join(segments, 'base').join('');
      const to = join(segments, 'agent').join('');
      let text = from;
      for (const e of editsBetween(from, to)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
      assert.equal(text, to, `seed ${seed}`);
    }
  });

  it('aligns a long file with scattered edits into one hunk per edit', () => {
    const base = Array.from({ length: 20000 }, (_, i) => `line ${i}\n`);
    const cur = [...base];
    for (let k = 199; k >= 0; k--) cur[k * 100 + 50] = `changed ${k}\n`;
    assert.equal(computeHunks(base, cur).length, 200);
  });
});
