import { strict as assert } from 'node:assert';
import { LineSplitter, MAX_LINE_BYTES } from '../../../src/acp/lineFraming';

function collect(maxBytes?: number) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const splitter = new LineSplitter({ line: (l) => lines.push(l), oversized: (e) => oversized.push(e.size) }, maxBytes);
  return { lines, oversized, splitter };
}

describe('line framing', () => {
  it('splits on \\n and accepts \\r\\n', () => {
    const { lines, splitter } = collect();
    splitter.push(Buffer.from('{"a":1}\r\n{"b":2}\n\n{"c":3}\r\n'));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('decodes a multi-byte character split across chunks', () => {
    const { lines, splitter } = collect();
    const bytes = Buffer.from('"héllo 🐘 wörld"\n', 'utf8');
    // Cut inside the 4-byte elephant and inside é.
    const elephant = bytes.indexOf(0xf0);
    const cuts = [2, 3, elephant + 1, elephant + 3, bytes.length];
    let start = 0;
    for (const cut of cuts) {
      splitter.push(bytes.subarray(start, cut));
      start = cut;
    }
    assert.deepEqual(lines, ['"héllo 🐘 wörld"']);
  });

  it('feeds one byte at a time', () => {
    const { lines, splitter } = collect();
    const bytes = Buffer.from('{"x":"ünïcødé"}\r\n{"y":2}\n', 'utf8');
    for (const byte of bytes) splitter.push(Buffer.from([byte]));
    assert.deepEqual(lines, ['{"x":"ünïcødé"}', '{"y":2}']);
  });

  it('accepts a 10 MB line arriving in 64 KB chunks', () => {
    const { lines, splitter } = collect();
    const payload = 'x'.repeat(10 * 1024 * 1024);
    const bytes = Buffer.from(`{"big":"${payload}"}\n`);
    for (let i = 0; i < bytes.length; i += 65536) splitter.push(bytes.subarray(i, i + 65536));
    assert.equal(lines.length, 1);
    assert.equal(lines[0].length, payload.length + 10);
  });

  it('drops only the line over the cap and keeps the stream', () => {
    const { lines, oversized, splitter } = collect(1000);
    splitter.push(Buffer.from('{"ok":1}\n'));
    splitter.push(Buffer.from('y'.repeat(600)));
    splitter.push(Buffer.from('y'.repeat(600)));
    splitter.push(Buffer.from('y'.repeat(600) + '\n{"ok":2}\n'));
    splitter.push(Buffer.from('z'.repeat(1500) + '\n{"ok":3}\n'));
    assert.deepEqual(lines, ['{"ok":1}', '{"ok":2}', '{"ok":3}']);
    assert.equal(oversized.length, 2);
    assert.ok(oversized[0] > 1000);
  });

  it('caps lines at 64 MiB by default', () => {
    assert.equal(MAX_LINE_BYTES, 64 * 1024 * 1024);
  });

  it('delivers a final line without a newline at end of stream', () => {
    const { lines, splitter } = collect();
    splitter.push(Buffer.from('{"a":1}\n{"tail":'));
    splitter.push(Buffer.from('true}'));
    splitter.end();
    assert.deepEqual(lines, ['{"a":1}', '{"tail":true}']);
  });

  it('does not keep the caller\'s chunk memory', () => {
    const { lines, splitter } = collect();
    const chunk = Buffer.from('{"a":"first');
    splitter.push(chunk);
    chunk.fill(0x20);
    splitter.push(Buffer.from('"}\n'));
    assert.deepEqual(lines, ['{"a":"first"}']);
  });
});
