import { strict as assert } from 'node:assert';
import { contentSecurityPolicy } from '../../../src/panel/html';

describe('the chat webview’s content security policy', () => {
  it('lets audio play from data: URIs only, and keeps everything else closed', () => {
    const directives = contentSecurityPolicy('vscode-resource:', 'n0nce').split('; ');
    assert.ok(directives.includes('media-src data:'), directives.join('; '));
    assert.ok(directives.includes("default-src 'none'"));
    assert.deepEqual(directives.filter((d) => d.includes('*') || d.includes('http')), []);
  });
});
