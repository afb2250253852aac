import { strict as assert } from 'node:assert';
import { candidate, search } from '../../../src/panel/fuzzyMatch';

describe('panel fuzzy file match', () => {
  const files = ['src/panel/protocol.ts', 'src/acp/schema/content.ts', 'README.md', 'test/unit/panel/protocol.test.ts', 'webview/main.ts', 'src/extension.ts'].map(candidate);

  it('matches characters in order, preferring the file name', () => {
    assert.deepEqual(search('proto', files).map((c) => c.label), ['src/panel/protocol.ts', 'test/unit/panel/protocol.test.ts']);
    assert.equal(search('main', files)[0].label, 'webview/main.ts');
    assert.equal(search('ext', files)[0].label, 'src/extension.ts');
  });

  it('matches across path segments and ignores case and spaces', () => {
    assert.equal(search('SCHEMA cont', files)[0].label, 'src/acp/schema/content.ts');
    assert.deepEqual(search('zzz', files), []);
  });

  it('lists the shortest paths for an empty query', () => {
    assert.equal(search('', files, 2)[0].label, 'README.md');
  });

  it('finds the match among 50,000 files, and caps a broad query (how fast: npm run bench -- fuzzy)', () => {
    const many = [];
    for (let i = 0; i < 50_000; i++) many.push(candidate(`packages/pkg${i % 200}/src/module${i}/file${i}.${i % 3 ? 'ts' : 'md'}`));
    many.push(candidate('packages/special/src/needle.ts'));
    assert.equal(search('needle', many)[0].label, 'packages/special/src/needle.ts');
    assert.equal(search('pkg1', many).length, 50);
  });
});
