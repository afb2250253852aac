import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { LineSplitter } from '../../../src/acp/lineFraming';
import { SessionNotification } from '../../../src/acp/schema/sessionUpdate';
import { parseSessionNotification, plainTextChunk } from '../../../src/acp/schema/textChunk';

/** What the splitter must deliver, computed on the whole stream at once. */
function reference(text: string, maxBytes: number) {
  const lines: string[] = [];
  let oversized = 0;
  for (const raw of text.split('\n')) {
    if (Buffer.byteLength(raw) > maxBytes) oversized++;
    else {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line) lines.push(line);
    }
  }
  return { lines, oversized };
}

describe('stream fast paths', () => {
  it('the line splitter gives what splitting the whole stream gives, however it is cut and whatever the cap', () => {
    const piece = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('\n', '\r\n', '\r', 'é', '🐘', 'ü\n', '\n\n'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(60), { maxLength: 10 }), fc.integer({ min: 1, max: 40 }), (pieces, cuts, maxBytes) => {
        const text = pieces.join('');
        const bytes = Buffer.from(text, 'utf8');
        const lines: string[] = [];
        let oversized = 0;
        const splitter = new LineSplitter({ line: (l) => lines.push(l), oversized: () => oversized++ }, maxBytes);
        let start = 0;
        for (const cut of [...cuts.map((c) => Math.min(c, bytes.length))].sort((a, b) => a - b)) {
          splitter.push(bytes.subarray(start, Math.max(start, cut)));
          start = Math.max(start, cut);
        }
        splitter.push(bytes.subarray(start));
        splitter.end();
        assert.deepEqual({ lines, oversized }, reference(text, maxBytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a plain text chunk as the schema would, unknown fields kept', () => {
    const kind = fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk');
    const extra = fc.dictionary(fc.constantFrom('x', 'y', 'extra'), fc.jsonValue(), { maxKeys: 2 });
    fc.assert(
      fc.property(kind, fc.string(), fc.option(fc.string(), { nil: undefined }), extra, extra, (sessionUpdate, text, messageId, more, contentMore) => {
        const params = JSON.parse(JSON.stringify({ sessionId: 's1', ...more, update: { sessionUpdate, messageId, ...more, content: { ...contentMore, type: 'text', text } } }));
        const fast = plainTextChunk(params);
        const slow = SessionNotification.parse(params);
        if (fast) assert.deepEqual(fast, slow);
        else assert.ok(text.includes('[MODE_UPDATE]'), 'only Gemini mode text leaves a plain chunk to the schema');
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves everything else to the schema, which refuses bad input with its message', () => {
    const chunk = (update: Record<string, unknown>, top: Record<string, unknown> = {}) => ({ sessionId: 's1', ...top, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' }, ...update } });
    const others = [
      chunk({ content: { type: 'text', text: 5 } }),
      chunk({ content: { type: 'image', data: 'x', mimeType: 'image/png' } }),
      chunk({ content: { type: 'text', text: 'hi', annotations: { priority: 1 } } }),
      chunk({ messageId: 7 }),
      chunk({ _meta: { a: 1 } }),
      chunk({}, { _meta: { a: 1 } }),
      chunk({}, { sessionId: 3 }),
      chunk({ sessionUpdate: 'plan', entries: [] }),
      chunk({ content: { type: 'text', text: '[MODE_UPDATE] autoEdit' } }),
      [chunk({})],
      null,
    ];
    for (const params of others) assert.equal(plainTextChunk(params), undefined, JSON.stringify(params));
    const bad = parseSessionNotification({ sessionId: 3, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } });
    assert.equal(bad.success, false);
    assert.match(String(bad.error), /sessionId/);
    const mode = parseSessionNotification(chunk({ content: { type: 'text', text: '[MODE_UPDATE] autoEdit' } }));
    assert.equal(mode.success && mode.data.update.sessionUpdate, 'current_mode_update');
  });
});
