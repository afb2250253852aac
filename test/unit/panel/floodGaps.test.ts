import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FLOOD_CHARS, FloodGaps, RECENT_CHARS } from '../../../src/panel/floodGaps';
import { BlockBoundaryScanner } from '../../../src/shared/blockBoundary';
import { PageText } from '../support/pageText';

/** Paragraphs of about 50 characters: a block boundary every line or two. */
const paragraphs = (from: number, count: number) => Array.from({ length: count }, (_, i) => `Paragraph ${from + i} says something short.\n\n`).join('');

/** Every safe cut of `text` (as the page's renderer would cut it). */
function cutsOf(text: string): Set<number> {
  const scanner = new BlockBoundaryScanner();
  scanner.scan(text);
  const cuts = new Set<number>();
  for (let at = 0; ; ) {
    const next = scanner.cutWithin(at, at); // (the first cut after `at`)
    if (next <= at) return cuts;
    cuts.add(next);
    at = next;
  }
}

describe('flood gaps: the newest text of an answer first, the rest after', () => {
  it('sends a short append as it is', () => {
    const floods = new FloodGaps();
    assert.deepEqual(floods.append(1, 0, 'Hello.\n\n', () => ''), { op: 'append', index: 1, offset: 0, delta: 'Hello.\n\n' });
    assert.equal(floods.open, false);
    assert.deepEqual(floods.fills(1000), []);
  });

  it('sends a flood’s newest text from a block boundary, then fills the gap until the page holds the whole text', () => {
    const floods = new FloodGaps();
    const page = new PageText();
    const start = 'Start.\n\n';
    page.apply(floods.append(1, 0, start, () => start));
    const flood = paragraphs(0, 3000);
    const op = floods.append(1, start.length, flood, () => start + flood);
    assert.equal(op.op, 'append');
    assert.ok(op.skip !== undefined && op.skip > 0, 'the flood skips');
    assert.ok(op.delta.length >= RECENT_CHARS && op.delta.length < RECENT_CHARS + 100, `newest text: ${op.delta.length}`);
    assert.ok(op.delta.startsWith('Paragraph '), 'from a block boundary');
    assert.equal(op.offset + op.skip + op.delta.length, start.length + flood.length);
    page.apply(op);
    assert.equal(floods.open, true);
    for (let fills = floods.fills(100_000); fills.length > 0; fills = floods.fills(100_000)) fills.forEach((fill) => page.apply(fill));
    assert.equal(floods.open, false);
    assert.equal(page.gap, undefined);
    assert.equal(page.text, start + flood);
  });

  it('moves the newest text the page held into the gap when a second flood comes before it closed', () => {
    const floods = new FloodGaps();
    const page = new PageText();
    const first = paragraphs(0, 3000);
    const second = paragraphs(3000, 3000);
    const firstOp = floods.append(1, 0, first, () => first);
    page.apply(firstOp);
    page.apply(floods.fills(1000)[0]);
    const small = paragraphs(6000, 3);
    page.apply(floods.append(1, first.length, small, () => first + small));
    const secondOp = floods.append(1, first.length + small.length, second, () => first + small + second);
    assert.equal(secondOp.offset, 1000, 'from where the page’s own text ends');
    assert.equal(secondOp.skip, first.length + small.length + second.length - 1000 - secondOp.delta.length);
    page.apply(secondOp);
    for (let fills = floods.fills(70_000); fills.length > 0; fills = floods.fills(70_000)) fills.forEach((fill) => page.apply(fill));
    assert.equal(page.text, first + small + second);
  });

  it('sends a flood with no block boundary in it whole (one long code block)', () => {
    const floods = new FloodGaps();
    const code = '```ts\n' + 'const x = 1;\n'.repeat(10_000);
    const op = floods.append(1, 0, code, () => code);
    assert.equal(op.skip, undefined);
    assert.equal(op.delta, code);
  });

  it('never cuts inside a code block that opened before the flood', () => {
    const floods = new FloodGaps();
    const opened = 'Intro.\n\n```md\n';
    floods.append(1, 0, opened, () => opened);
    // blank lines and column-0 lines inside the fence look like boundaries to a scanner that missed its opening
    const inside = 'Heading\n\nline\n\n'.repeat(8000) + '```\n\n';
    const after = paragraphs(0, 1000);
    const op = floods.append(1, opened.length, inside + after, () => opened + inside + after);
    assert.ok(op.skip !== undefined);
    assert.ok(op.offset + op.skip >= opened.length + inside.length, 'the newest text starts after the fence closed');
  });

  it('rebuilds the whole text from any stream of appends and fills, each newest text starting at a block boundary', () => {
    let skips = 0;
    const piece = fc.constantFrom('Some words. ', 'More text\n', '\n', '- item\n', '```\n', 'code();\n', '# Title\n', '> quote\n', '| a | b |\n', '    indented\n');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(piece, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 1500 }), fc.nat(3)), { minLength: 1, maxLength: 12 }),
        (steps) => {
          const floods = new FloodGaps();
          const page = new PageText(7);
          let whole = '';
          for (const [pieces, times, fills] of steps) {
            const delta = pieces.join('').repeat(times);
            const op = floods.append(7, whole.length, delta, () => whole + delta);
            whole += delta;
            if (op.skip !== undefined) {
              skips++;
              assert.ok(delta.length > FLOOD_CHARS);
              assert.ok(cutsOf(whole).has(op.offset + op.skip), 'the newest text starts at a cut of the whole text');
            }
            page.apply(op);
            for (let i = 0; i < fills; i++) floods.fills(20_000).forEach((fill) => page.apply(fill));
          }
          while (floods.open) floods.fills(50_000).forEach((fill) => page.apply(fill));
          assert.equal(page.gap, undefined);
          assert.equal(page.text, whole);
        },
      ),
      { numRuns: 100 },
    );
    assert.ok(skips >= 5, `floods skipped ${skips} times`);
  });
});
