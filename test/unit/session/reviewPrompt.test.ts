import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MAX_QUOTED_LINES, reviewPromptBlocks, type ReviewComment } from '../../../src/session/reviewPrompt';

const comment = (over: Partial<ReviewComment>): ReviewComment => ({ uri: 'file:///ws/a.ts', path: 'a.ts', startLine: 0, endLine: 0, quoted: 'x', text: 'fix', ...over });

describe('review comments → prompt blocks', () => {
  it('one instruction, then per comment a resource link titled with its lines and a text with the quote and the comment, in file and line order', () => {
    const blocks = reviewPromptBlocks([
      comment({ uri: 'file:///ws/b.ts', path: 'b.ts', startLine: 4, endLine: 6, quoted: 'five\nsix\nseven', text: '  rename  ' }),
      comment({ startLine: 9, endLine: 9, quoted: 'ten', text: 'why?' }),
      comment({ startLine: 1, endLine: 1, quoted: 'two', text: 'first' }),
    ]);
    assert.equal(blocks.length, 7);
    assert.deepEqual(blocks[0], { type: 'text', text: 'Review of your changes: 3 comments on 2 files. Address each one (change the code, or say why not). Each gives the file, the lines as they read now, and the comment.' });
    assert.deepEqual(blocks.filter((b) => b.type === 'resource_link').map((b) => b.type === 'resource_link' && [b.uri, b.name, b.title]), [
      ['file:///ws/a.ts', 'a.ts', 'a.ts, line 2'],
      ['file:///ws/a.ts', 'a.ts', 'a.ts, line 10'],
      ['file:///ws/b.ts', 'b.ts', 'b.ts, lines 5–7'],
    ]);
    assert.deepEqual(blocks[6], { type: 'text', text: 'Comment 3 of 3, on b.ts lines 5–7:\n```\nfive\nsix\nseven\n```\nrename' });
    assert.deepEqual(reviewPromptBlocks([]), [], 'nothing to send is no prompt');
  });

  it('quotes code whatever backticks it holds, and cuts a long quote saying how much', () => {
    const [, , text] = reviewPromptBlocks([comment({ quoted: 'a ```` b', text: 'c' })]);
    assert.ok(text.type === 'text' && text.text.includes('`````\na ```` b\n`````'), 'the fence is longer than any run inside');
    const long = Array.from({ length: MAX_QUOTED_LINES + 5 }, (_, i) => `l${i}`).join('\n');
    const [, , cut] = reviewPromptBlocks([comment({ quoted: long })]);
    assert.ok(cut.type === 'text' && cut.text.includes('(5 more lines not quoted)') && !cut.text.includes(`l${MAX_QUOTED_LINES}\n`));
  });

  it('every comment text and quote arrives whole in its block (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ quoted: fc.string({ maxLength: 200 }), text: fc.string({ minLength: 1, maxLength: 200 }).filter((t) => t.trim() !== ''), startLine: fc.nat(500) }), { minLength: 1, maxLength: 8 }), (items) => {
        const blocks = reviewPromptBlocks(items.map((i) => comment({ ...i, endLine: i.startLine })));
        assert.equal(blocks.length, 1 + 2 * items.length);
        const texts = blocks.slice(1).filter((b) => b.type === 'text').map((b) => (b.type === 'text' ? b.text : ''));
        for (const item of items) assert.ok(texts.some((t) => t.endsWith(item.text.trim()) && t.includes(item.quoted.replace(/\r\n?/g, '\n'))));
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});
