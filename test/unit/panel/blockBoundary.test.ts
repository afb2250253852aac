import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { BlockBoundaryScanner } from '../../../src/shared/blockBoundary';
import { createMarkdown } from '../../../webview/markdown/markdownIt';

const md = createMarkdown();

const DOCS = [
  'One paragraph.\n\nTwo paragraph\nstill two.\n\n# Heading\n\nThree.\n',
  'Text\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nAfter the fence.\n',
  'Text\n\n~~~\ncode\n\nmore ``` not a close\n~~~\n\nAfter.\n',
  '````md\n```\ninner\n\nstill inner\n```\n````\n\nout\n',
  '- a\n- b\n\n- loose c\n\n  continued c\n\nParagraph after the list.\n',
  '1. one\n2. two\n\n3. three\n\n10. ten\n\nText.\n',
  '> quote\n\n> another quote\n\nplain\n',
  '| a | b |\n|--:|:-:|\n| 1 | 2 |\n\nafter table\n',
  'para\n\n    indented code\n\n    more code\n\nback\n',
  'Setext\n======\n\n---\n\n***\n\ntext\n',
  '- item\n\n  ```js\n  x\n\n  y\n  ```\n\nafter\n',
  'a <b>html</b> and `code`\n\n**bold\n\nnot bold**\n',
  '* star\n\n+ plus\n\n- minus\n\nend\n',
  '```\nunclosed fence\n\nstill code\n',
  'x\n\n\n\n\ny\n\n',
];

/** Feeds `doc` in pseudo-random chunks and returns the segments the cuts produce. */
function segments(doc: string, seed: number): string[] {
  const scanner = new BlockBoundaryScanner();
  let shown = 0;
  let committed = 0;
  const out: string[] = [];
  let x = seed;
  while (shown < doc.length) {
    x = (x * 1103515245 + 12345) % 2147483648;
    shown = Math.min(doc.length, shown + 1 + (x % 9));
    const cut = scanner.scan(doc.slice(0, shown));
    assert.ok(cut >= committed, 'cuts only move forward');
    if (cut > committed) {
      out.push(doc.slice(committed, cut));
      committed = cut;
    }
  }
  out.push(doc.slice(committed));
  return out;
}

describe('webview Markdown block boundaries', () => {
  DOCS.forEach((doc, i) => {
    it(`renders document ${i + 1} the same in kept blocks as whole`, () => {
      for (const seed of [1, 7, 42, 1234]) {
        const parts = segments(doc, seed);
        assert.equal(parts.join(''), doc);
        assert.equal(parts.map((p) => md.render(p)).join(''), md.render(doc), `seed ${seed}: ${JSON.stringify(parts)}`);
      }
    });
  });

  it('cuts between paragraphs, never inside a fence, before an indented line or a list item', () => {
    const scan = (text: string) => new BlockBoundaryScanner().scan(text);
    assert.equal(scan('a\n\nb\n'), 3);
    assert.equal(scan('```\na\n\nb\n'), 0);
    assert.equal(scan('a\n\n  b\n'), 0);
    assert.equal(scan('- a\n\n- b\n'), 0);
    assert.equal(scan('1. a\n\n2) b\n'), 0);
    assert.equal(scan('a\n\nb'), 0, 'an incomplete line is not examined');
  });

  it('keeps finding cuts in a long stream, scanning 8,000 growing prefixes (its speed: npm run bench -- webview)', () => {
    let full = '';
    for (let i = 0; i < 20_000; i++) full += i % 10 === 9 ? 'end of paragraph.\n\n' : 'lorem ipsum dolor ';
    full = full.split('').join(''); // one flat string: slices of it are cheap, as the page's text is between frames
    const scanner = new BlockBoundaryScanner();
    for (let shown = 50; shown < full.length; shown += 50) scanner.scan(full.slice(0, shown));
    assert.ok(scanner.scan(full) > full.length - 400, 'the last paragraph but one was kept');
  });

  it('gives a backlog a share at a time: the furthest cut within the limit, else the next one', () => {
    const para = (n: number) => `${'x'.repeat(n - 2)}\n\n`;
    const text = para(100) + para(100) + para(300) + para(50) + 'open\n';
    const scanner = new BlockBoundaryScanner();
    assert.equal(scanner.scan(text), 550);
    assert.equal(scanner.cutWithin(0, 250), 200, 'two paragraphs fit');
    assert.equal(scanner.cutWithin(200, 250), 500, 'a paragraph longer than the share still goes whole');
    assert.equal(scanner.cutWithin(500, 10_000), 550);
    assert.equal(scanner.cutWithin(550, 10_000), 550, 'nothing left');
  });

  it('finds the same cuts in a text whose rendered prefix is dropped as it goes (rebase) as in the whole text', () => {
    let full = '';
    for (let i = 0; i < 3_000; i++) full += i % 7 === 6 ? 'end.\n\n' : i % 31 === 0 ? '```\ncode\n\nmore\n```\n\n' : 'word word ';
    const whole = new BlockBoundaryScanner();
    const expected: number[] = [];
    for (let shown = 13; shown <= full.length + 13; shown += 13) {
      const cut = whole.scan(full.slice(0, Math.min(shown, full.length)));
      if (cut > (expected.at(-1) ?? 0)) expected.push(cut);
    }
    const rebased = new BlockBoundaryScanner();
    let dropped = 0;
    let buffer = '';
    const found: number[] = [];
    for (let shown = 13; shown <= full.length + 13; shown += 13) {
      buffer += full.slice(dropped + buffer.length, Math.min(shown, full.length));
      const cut = rebased.scan(buffer);
      if (cut > 0) {
        // every third time, render (drop) up to a cut within 40 characters, as the page does a frame's share
        if (shown % 39 === 0) {
          const share = rebased.cutWithin(0, 40);
          found.push(dropped + share);
          buffer = buffer.slice(share);
          rebased.rebase(share);
          dropped += share;
        }
      }
    }
    let last = rebased.scan(buffer);
    while (last > 0) {
      const share = rebased.cutWithin(0, 40);
      found.push(dropped + share);
      buffer = buffer.slice(share);
      rebased.rebase(share);
      dropped += share;
      last -= share;
    }
    assert.ok(found.length > 100);
    // every cut taken is a cut of the whole text, and the last is the whole text's last
    const cuts = new Set<number>();
    const all = new BlockBoundaryScanner();
    all.scan(full);
    for (let from = 0, next = all.cutWithin(0, 0); next > from; from = next, next = all.cutWithin(next, next)) cuts.add(next);
    for (const cut of found) assert.ok(cuts.has(cut), `cut ${cut} is a cut of the whole text`);
    assert.equal(found.at(-1), expected.at(-1));
  });

  it('property: cuts taken with rebase are the cuts a scanner that keeps the whole text gives, for any text, chunks and shares', () => {
    const line = fc.constantFrom('', 'word word', '# Head', '```', '~~~', '- item', '1. one', '    code', '> quote', '  indented', '| a | b |', 'end.');
    const plan = fc.record({
      lines: fc.array(line, { minLength: 1, maxLength: 120 }),
      chunks: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 40 }),
      limits: fc.array(fc.integer({ min: 0, max: 80 }), { minLength: 1, maxLength: 20 }),
    });
    fc.assert(
      fc.property(plan, ({ lines, chunks, limits }) => {
        const full = lines.join('\n') + '\n';
        const kept = new BlockBoundaryScanner();
        const rebased = new BlockBoundaryScanner();
        let shown = 0;
        let dropped = 0;
        let step = 0;
        const viaRebase: number[] = [];
        const viaWhole: number[] = [];
        while (shown < full.length || step < 2 * limits.length) {
          shown = Math.min(full.length, shown + chunks[step % chunks.length]);
          const keptCut = kept.scan(full.slice(0, shown));
          const rebasedCut = rebased.scan(full.slice(dropped, shown));
          assert.equal(rebasedCut === 0 ? dropped : dropped + rebasedCut, keptCut === 0 || keptCut <= dropped ? dropped : keptCut);
          const limit = limits[step % limits.length];
          if (rebasedCut > 0) {
            const share = rebased.cutWithin(0, limit);
            const whole = kept.cutWithin(dropped, dropped + limit);
            viaRebase.push(dropped + share);
            viaWhole.push(whole);
            rebased.rebase(share);
            dropped += share;
          }
          step++;
        }
        assert.deepEqual(viaRebase, viaWhole);
      }),
      { numRuns: 300 },
    );
  });
});
