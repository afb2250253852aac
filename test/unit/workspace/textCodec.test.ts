import { strict as assert } from 'node:assert';
import { adaptEol, decodeText, encodeText, looksBinary, roundTrips, sliceLines, uniformEol } from '../../../src/workspace/textCodec';
import { sensitiveReason } from '../../../src/workspace/sensitivePaths';

describe('text codec', () => {
  const bytes = (...b: number[]) => Uint8Array.from(b);

  it('detects BOMs and keeps them in the format, not the text', () => {
    const utf8 = decodeText(bytes(0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0x62));
    assert.deepEqual(utf8, { text: 'a\r\nb', format: { encoding: 'utf8', bom: true } });
    const le = decodeText(bytes(0xff, 0xfe, 0x61, 0x00));
    assert.deepEqual(le, { text: 'a', format: { encoding: 'utf16le', bom: true } });
    const be = decodeText(bytes(0xfe, 0xff, 0x00, 0x61));
    assert.deepEqual(be, { text: 'a', format: { encoding: 'utf16be', bom: true } });
  });

  it('round-trips byte for byte: BOM, CRLF, no final newline, UTF-16, single-byte encodings', () => {
    const samples: [Uint8Array, string][] = [
      [Buffer.from('\ufeffline one\r\nline two\r\nno final newline', 'utf8'), 'utf8'],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\n', 'utf16le')]), 'utf8'],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('héllo\n', 'utf16le').swap16()]), 'utf8'],
      [Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x80]), 'windows1252'],
      [Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'iso88591'],
      [Buffer.from('plain ascii\n'), 'utf8'],
    ];
    for (const [b, configured] of samples) {
      const { text, format } = decodeText(b, configured);
      assert.deepEqual(Buffer.from(encodeText(text, format)), Buffer.from(b), `${configured}: ${JSON.stringify(text)}`);
      assert.ok(roundTrips(b, configured));
    }
  });

  it('slices by 1-based line and limit, keeping line endings', () => {
    const text = 'a\r\nb\nc\nd';
    assert.equal(sliceLines(text, undefined, undefined), text);
    assert.equal(sliceLines(text, 1, 1), 'a\r\n');
    assert.equal(sliceLines(text, 2, 2), 'b\nc\n');
    assert.equal(sliceLines(text, 3, undefined), 'c\nd');
    assert.equal(sliceLines(text, undefined, 2), 'a\r\nb\n');
    assert.equal(sliceLines(text, 4, 10), 'd');
    assert.equal(sliceLines(text, 9, 1), '');
    assert.equal(sliceLines(text, 2, 0), '');
    assert.equal(sliceLines('x\n', 2, 1), '');
  });

  it('falls back to UTF-8 for an unknown configured encoding', () => {
    assert.deepEqual(decodeText(Buffer.from('é'), 'klingon').format, { encoding: 'utf8', bom: false });
  });

  it('calls a NUL byte binary, except in UTF-16', () => {
    assert.equal(looksBinary(bytes(0x61, 0x00, 0x62)), true);
    assert.equal(looksBinary(bytes(0xff, 0xfe, 0x61, 0x00)), false);
    assert.equal(looksBinary(Buffer.from('text\n')), false);
  });

  it('gives the agent text the file line endings when the file is uniform', () => {
    assert.equal(uniformEol('a\r\nb\r\n'), '\r\n');
    assert.equal(uniformEol('a\nb\r\n'), undefined);
    assert.equal(adaptEol('x\ny\n', 'a\r\nb\r\n'), 'x\r\ny\r\n');
    assert.equal(adaptEol('x\r\ny', 'a\nb\n'), 'x\ny');
    assert.equal(adaptEol('x\ny', 'a\r\nb\n'), 'x\ny', 'mixed endings: left alone');
    assert.equal(adaptEol('x\ny', undefined), 'x\ny');
  });
});

describe('sensitive paths', () => {
  const sensitive = [
    '/ws/.git/config',
    '/ws/.git/hooks/pre-commit',
    '/ws/sub/module/.git/hooks/post-checkout',
    '/ws/.GIT/config',
    '/ws/.git./config',
    '/ws/GIT~1/config',
    '/ws/.vscode/tasks.json',
    '/ws/.vscode/settings.json',
    '/ws/.claude/settings.json',
    '/ws/.codex/config.toml',
    '/ws/.gemini/settings.json',
    '/ws/.cursor/rules/x.mdc',
    '/ws/.mcp.json',
    '/ws/.env',
    '/ws/.env.local',
    '/ws/.envrc',
    '/ws/pkg/.env.production',
    '/ws/.husky/pre-push',
    '/ws/.bashrc',
    '/ws/.zshrc',
    '/ws/.profile',
    '/ws/.config/fish/config.fish',
    '/ws/.pre-commit-config.yaml',
    '/ws/.gitmodules',
    '/ws/.hg/hgrc',
    'C:\\ws\\.VSCODE\\launch.json',
  ];
  for (const p of sensitive) it(`asks for ${p}`, () => assert.ok(sensitiveReason(p), p));

  for (const p of ['/ws/src/a.ts', '/ws/README.md', '/ws/environment.ts', '/ws/docs/git/notes.md', '/ws/.gitignore', '/ws/vscode/x.ts', '/ws/.github/README.md']) {
    it(`does not ask for ${p}`, () => assert.equal(sensitiveReason(p), undefined));
  }

  it('checks the resolved path as well as the written one', () => {
    assert.ok(sensitiveReason('/ws/innocent.txt', '/ws/.git/hooks/pre-commit'));
  });
});
