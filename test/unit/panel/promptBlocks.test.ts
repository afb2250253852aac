import { strict as assert } from 'node:assert';
import { buildPromptBlocks, EMBED_LIMIT } from '../../../src/panel/promptBlocks';
import type { Attachment } from '../../../src/shared/protocol';

const file: Attachment = { kind: 'file', uri: 'file:///w/src/a.ts', label: 'src/a.ts' };
const selection: Attachment = { kind: 'selection', uri: 'file:///w/src/a.ts', label: 'src/a.ts:2-3', startLine: 2, endLine: 3, text: 'const a = "```";', languageId: 'typescript' };
const image: Attachment = { kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=', label: 'Pasted image 1' };
const readText = async (uri: string) => (uri.endsWith('a.ts') ? 'export const a = 1;\n' : undefined);

describe('panel prompt blocks', () => {
  it('links files and inlines selections as fenced text without embeddedContext', async () => {
    const blocks = await buildPromptBlocks('look', [file, selection], { embeddedContext: false, image: false, readText });
    assert.deepEqual(blocks[0], { type: 'text', text: 'look' });
    assert.deepEqual(blocks[1], { type: 'resource_link', uri: 'file:///w/src/a.ts', name: 'a.ts' });
    assert.deepEqual(blocks[2], { type: 'text', text: 'src/a.ts:2-3:\n````typescript\nconst a = "```";\n````' });
  });

  it('embeds file text and selections with embeddedContext', async () => {
    const blocks = await buildPromptBlocks('look', [file, selection], { embeddedContext: true, image: false, readText });
    assert.deepEqual(blocks[1], { type: 'resource', resource: { uri: 'file:///w/src/a.ts', text: 'export const a = 1;\n' } });
    assert.deepEqual(blocks[2], { type: 'resource', resource: { uri: 'file:///w/src/a.ts#L2-L3', text: 'const a = "```";' } });
  });

  it('links a file it may not read or that is too large, even with embeddedContext', async () => {
    const other: Attachment = { kind: 'file', uri: 'file:///etc/passwd', label: '/etc/passwd' };
    const big = async () => 'x'.repeat(EMBED_LIMIT + 1);
    assert.equal((await buildPromptBlocks('', [other], { embeddedContext: true, image: false, readText }))[0].type, 'resource_link');
    assert.equal((await buildPromptBlocks('', [file], { embeddedContext: true, image: false, readText: big }))[0].type, 'resource_link');
  });

  it('sends images only to agents that take them', async () => {
    assert.deepEqual(await buildPromptBlocks('', [image], { embeddedContext: false, image: false, readText }), []);
    assert.deepEqual(await buildPromptBlocks('', [image], { embeddedContext: false, image: true, readText }), [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
  });

  it('sends sound only to agents that take audio', async () => {
    const sound: Attachment = { kind: 'audio', mimeType: 'audio/wav', data: 'UklGRg==', label: 'memo.wav' };
    assert.deepEqual(await buildPromptBlocks('', [sound], { embeddedContext: false, image: true, readText }), []);
    assert.deepEqual(await buildPromptBlocks('listen', [sound], { embeddedContext: false, image: false, audio: true, readText }), [
      { type: 'text', text: 'listen' },
      { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
    ]);
  });

  it('sends no text block for blank text', async () => {
    assert.deepEqual(await buildPromptBlocks('  \n', [], { embeddedContext: false, image: false, readText }), []);
  });

  it('sends Problems and terminal text as fenced text, or embedded under a howdah: URI', async () => {
    const problems: Attachment = { kind: 'context', source: 'problems', label: 'Problems in a.ts (1)', text: 'a.ts:1:1 error: bad' };
    const [, asText] = await buildPromptBlocks('fix', [problems], { embeddedContext: false, image: false, readText });
    assert.deepEqual(asText, { type: 'text', text: 'Problems in a.ts (1):\n```\na.ts:1:1 error: bad\n```' });
    const [, embedded] = await buildPromptBlocks('fix', [problems], { embeddedContext: true, image: false, readText });
    assert.deepEqual(embedded, { type: 'resource', resource: { uri: 'howdah://problems/Problems%20in%20a.ts%20(1)', mimeType: 'text/plain', text: 'a.ts:1:1 error: bad' } });
  });

  it('reads @problems and @terminal when the prompt is sent; one with nothing to read is left out', async () => {
    const mention = (uri: string, label: string): Attachment => ({ kind: 'file', uri, label });
    const asked: string[] = [];
    const readContext = async (source: 'problems' | 'terminal') => {
      asked.push(source);
      return source === 'terminal' ? { label: 'Terminal bash', text: '$ npm test\n1 failing' } : undefined;
    };
    const blocks = await buildPromptBlocks('why', [mention('howdah:problems', 'problems'), mention('howdah:terminal', 'terminal')], { embeddedContext: false, image: false, readText, readContext });
    assert.deepEqual(asked, ['problems', 'terminal']);
    assert.deepEqual(blocks, [{ type: 'text', text: 'why' }, { type: 'text', text: 'Terminal bash:\n```\n$ npm test\n1 failing\n```' }]);
  });
});
