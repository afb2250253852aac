import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { HostMessage, PatchMessage } from '../../../src/shared/protocol';
import { BYTES_FROM, fromPosted, toPosted, type PostedPatchMessage } from '../../../src/shared/postedText';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = (text: string) => encoder.encode(text);
const decode = (bytes: Uint8Array) => decoder.decode(bytes);
const patch = (...deltas: string[]): PatchMessage => ({ type: 'patch', epoch: 1, ops: [...deltas.map((delta, i) => ({ op: 'append' as const, index: i, offset: 0, delta })), { op: 'turn', turn: 'idle' }] });
const deltas = (message: unknown) => (message as PostedPatchMessage).ops.flatMap((op) => (op.op === 'append' ? [op.delta] : []));

describe('shared posted text: long deltas cross to the page as UTF-8 bytes', () => {
  it('posts a delta of BYTES_FROM characters or more as bytes, a shorter one as it is, and leaves other messages alone', () => {
    const long = 'é'.repeat(BYTES_FROM);
    const posted = toPosted(patch('short', long), encode);
    const [short, bytes] = deltas(posted);
    assert.equal(short, 'short');
    assert.ok(bytes instanceof Uint8Array);
    assert.equal(bytes.byteLength, 2 * BYTES_FROM);
    assert.deepEqual(fromPosted(posted, decode), patch('short', long));
    const other = { type: 'focusPrompt' } as HostMessage;
    assert.equal(toPosted(other, encode), other);
    const small = patch('a', 'b');
    assert.equal(toPosted(small, encode), small, 'nothing to encode: the same message');
  });

  it('keeps a delta with a lone surrogate (half a pair cut at a chunk’s end) as a string: UTF-8 has no form for it', () => {
    const cut = 'x'.repeat(BYTES_FROM) + '\ud83d';
    assert.equal(deltas(toPosted(patch(cut), encode))[0], cut);
    const whole = 'x'.repeat(BYTES_FROM) + '\ud83d\ude00';
    assert.ok(deltas(toPosted(patch(whole), encode))[0] instanceof Uint8Array, 'a whole pair is encoded');
  });

  it('property: the page gets every delta exactly as the host had it, whatever its characters and length', () => {
    // code units, not code points: halves of pairs alone, in either order, next to whole pairs
    const unit = fc.constantFrom('a', 'é', '\n', '"', '\\', '\u0000', '😀', '\ud83d', '\ude00', '中');
    const short = fc.array(unit, { maxLength: 30 }).map((units) => units.join(''));
    const long = fc.tuple(short, fc.nat(40)).map(([s, extra]) => 'x'.repeat(BYTES_FROM + extra) + s);
    const text = fc.oneof(short, long, fc.tuple(long, short).map(([a, b]) => b + a));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (texts) => {
        const message = patch(...texts);
        // (the page receives a structured clone of what was posted)
        assert.deepEqual(fromPosted(structuredClone(toPosted(message, encode)), decode), message);
      }),
      { numRuns: 200 },
    );
  });

  it('posts a flood’s long fill and its newest text (with its skip) as bytes too', () => {
    const long = 'y'.repeat(BYTES_FROM);
    const message: PatchMessage = { type: 'patch', epoch: 1, ops: [{ op: 'append', index: 0, offset: 3, skip: 9, delta: long }, { op: 'fill', index: 0, offset: 3, delta: long }] };
    const posted = toPosted(message, encode) as PostedPatchMessage;
    assert.ok(posted.ops.every((op) => 'delta' in op && op.delta instanceof Uint8Array));
    assert.deepEqual(fromPosted(structuredClone(posted), decode), message);
  });
});
