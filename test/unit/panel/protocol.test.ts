import { strict as assert } from 'node:assert';
import { parseWebviewMessage, type WebviewMessage } from '../../../src/shared/protocol';

describe('panel protocol: messages from the webview', () => {
  const valid: WebviewMessage[] = [
    { type: 'ready' },
    { type: 'send', text: 'hi', attachments: [] },
    {
      type: 'send',
      text: '',
      attachments: [
        { kind: 'file', uri: 'file:///w/a.ts', label: 'a.ts' },
        { kind: 'selection', uri: 'file:///w/a.ts', label: 'a.ts:1-2', startLine: 1, endLine: 2, text: 'x', languageId: 'ts' },
        { kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=', label: 'Pasted image 1' },
      ],
    },
    { type: 'cancel' },
    { type: 'retry' },
    { type: 'newSession' },
    { type: 'selectSession', key: 's2' },
    { type: 'permission', toolCallId: 'tc-1', optionId: 'allow' },
    { type: 'setMode', modeId: 'code' },
    { type: 'setConfigOption', configId: 'model', value: 'm2' },
    { type: 'setConfigOption', configId: 'fast', value: true },
    { type: 'setModel', modelId: 'm1' },
    { type: 'openLink', href: 'https://example.com' },
    { type: 'openLocation', path: '/w/a.ts', line: 3 },
    { type: 'openLocation', path: '/w/a.ts' },
    { type: 'openDiff', toolCallId: 'tc-1', index: 0 },
    { type: 'openTerminal', terminalId: 'term-1' },
    { type: 'searchFiles', requestId: 4, query: 'a.t' },
    { type: 'copy', text: 'code' },
    { type: 'restoreCheckpoint', entryId: 3 },
  ];
  for (const message of valid) {
    it(`accepts ${message.type} ${JSON.stringify(message).slice(0, 60)}`, () => {
      assert.deepEqual(parseWebviewMessage(message), message);
    });
  }

  const invalid: [string, unknown][] = [
    ['not an object', 'ready'],
    ['null', null],
    ['no type', { text: 'x' }],
    ['an unknown type', { type: 'runCommand', command: 'workbench.action.reloadWindow' }],
    ['a missing field', { type: 'permission', toolCallId: 'tc-1' }],
    ['a wrong field type', { type: 'openLocation', path: '/a', line: '3' }],
    ['a negative line', { type: 'openLocation', path: '/a', line: -1 }],
    ['an empty link', { type: 'openLink', href: '' }],
    ['an empty id', { type: 'selectSession', key: '' }],
    ['a checkpoint of no entry', { type: 'restoreCheckpoint', entryId: -1 }],
    ['a config value of another type', { type: 'setConfigOption', configId: 'x', value: 3 }],
    ['an attachment of unknown kind', { type: 'send', text: '', attachments: [{ kind: 'folder', uri: 'x', label: 'x' }] }],
    ['an image that is not an image', { type: 'send', text: '', attachments: [{ kind: 'image', mimeType: 'text/html', data: 'PHNjcmlwdD4=', label: 'x' }] }],
    ['image data that is not base64', { type: 'send', text: '', attachments: [{ kind: 'image', mimeType: 'image/png', data: '"><script>', label: 'x' }] }],
    ['a prompt over the size limit', { type: 'send', text: 'x'.repeat(1_000_001), attachments: [] }],
    ['attachments that are not a list', { type: 'send', text: 'x', attachments: 'all' }],
    ['a fractional request id', { type: 'searchFiles', requestId: 1.5, query: 'a' }],
  ];
  for (const [what, raw] of invalid) {
    it(`drops and logs a message with ${what}`, () => {
      const logged: string[] = [];
      assert.equal(parseWebviewMessage(raw, (reason) => logged.push(reason)), undefined);
      assert.equal(logged.length, 1);
      assert.match(logged[0], /Dropped an invalid message/);
    });
  }

  it('strips keys it does not know', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'cancel', extra: '<script>' }), { type: 'cancel' });
  });
});
