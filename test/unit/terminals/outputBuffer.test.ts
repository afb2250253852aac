import { strict as assert } from 'node:assert';
import { cutStart, OutputBuffer, StreamText } from '../../../src/terminals/outputBuffer';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('terminals: output buffer', () => {
  it('keeps everything under the limit, untruncated', () => {
    const b = new OutputBuffer(100);
    b.append('hello ');
    b.append('world');
    assert.equal(b.text, 'hello world');
    assert.equal(b.truncated, false);
    assert.equal(b.byteLength, 11);
  });

  it('keeps the last bytes once over the limit, and says so', () => {
    const b = new OutputBuffer(10);
    b.append('0123456789');
    assert.equal(b.truncated, false, 'exactly at the limit is not truncated');
    b.append('abc');
    assert.equal(b.text, '3456789abc');
    assert.equal(b.truncated, true);
    b.append('');
    assert.equal(b.truncated, true, 'stays truncated');
  });

  it('cuts on a character boundary: never half a multi-byte character', () => {
    // é = 2 bytes, 🐘 = 4 bytes, € = 3 bytes.
    for (const [text, limit] of [['aéééé', 5], ['🐘🐘🐘', 6], ['€€€€', 7], ['x🐘y', 4], ['é', 1]] as const) {
      const b = new OutputBuffer(limit);
      b.append(text);
      const kept = b.text;
      assert.ok(bytes(kept) <= limit, `${text}/${limit}: ${bytes(kept)} bytes kept`);
      assert.ok(text.endsWith(kept), `${text}/${limit}: "${kept}" is a tail`);
      assert.ok(!kept.includes('\ufffd'), 'no replacement character');
      // The kept tail is the longest whole-character tail that fits.
      const longer = [...text].slice(-[...kept].length - 1).join('');
      if (longer !== kept) assert.ok(bytes(longer) > limit);
      assert.equal(b.truncated, true);
    }
  });

  it('a cut inside a character keeps fewer bytes than the limit', () => {
    const b = new OutputBuffer(3);
    b.append('ab🐘');
    assert.equal(b.text, '');
    const c = new OutputBuffer(5);
    c.append('ab🐘');
    assert.equal(c.text, 'b🐘');
  });

  it('a limit of 0 keeps nothing and reports truncation', () => {
    const b = new OutputBuffer(0);
    assert.equal(b.truncated, false);
    b.append('x');
    assert.equal(b.text, '');
    assert.equal(b.truncated, true);
  });

  it('many small chunks and a few huge ones: the tail is exact', () => {
    const b = new OutputBuffer(64 * 1024);
    let all = '';
    for (let i = 0; i < 5000; i++) {
      const piece = `${i}:${'é'.repeat(i % 37)}€🐘\n`;
      b.append(piece);
      all += piece;
    }
    const huge = 'Z'.repeat(300 * 1024) + 'tail-é';
    b.append(huge);
    all += huge;
    const expected = Buffer.from(all, 'utf8');
    const kept = b.text;
    assert.ok(bytes(kept) <= 64 * 1024 && bytes(kept) > 64 * 1024 - 4);
    assert.equal(Buffer.compare(Buffer.from(kept, 'utf8'), expected.subarray(expected.length - bytes(kept))), 0);
    b.append('more');
    assert.ok(b.text.endsWith('tail-émore'));
  });

  it('Infinity keeps everything', () => {
    const b = new OutputBuffer(Infinity);
    for (let i = 0; i < 1000; i++) b.append('0123456789');
    assert.equal(b.text.length, 10000);
    assert.equal(b.truncated, false);
  });

  it('cutStart skips continuation bytes and handles surrogate pairs', () => {
    assert.equal(cutStart('🐘a', 1), 'a');
    assert.equal(cutStart('🐘a', 4), 'a');
    assert.equal(cutStart('a🐘', 1), '🐘');
    assert.equal(cutStart('abc', 0), 'abc');
    assert.equal(cutStart('abc', 5), '');
  });

  it('StreamText keeps a character split between two reads', () => {
    const s = new StreamText();
    const bytes = Buffer.from('é🐘', 'utf8');
    let out = '';
    for (const b of bytes) out += s.write(Buffer.from([b]));
    out += s.end();
    assert.equal(out, 'é🐘');
  });
});
