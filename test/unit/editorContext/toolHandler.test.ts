import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Problem } from '../../../src/editorContext/editorPort';
import { cappedList, cappedText, countLines, MAX_OUTPUT_CHARS, problemLine } from '../../../src/editorContext/format';
import { editorToolHandler } from '../../../src/editorContext/toolHandler';
import { parseToolArgs, TOOL_NAMES } from '../../../src/editorContext/tools';
import { Sandbox } from '../../../src/workspace/sandbox';
import { escapeFixture } from '../support/sandboxEscapes';
import { FakeEditor } from './fakeEditor';

const span = (line: number, character = 0, endLine = line, endCharacter = character) => ({ start: { line, character }, end: { line: endLine, character: endCharacter } });

describe('editor context: tool inputs', () => {
  it('has exactly the tools of issue 16', () => {
    assert.deepEqual([...TOOL_NAMES].sort(), ['definition', 'diagnostics', 'document_symbols', 'hover', 'open_editors', 'read_file', 'references', 'selection', 'workspace_symbols']);
  });

  const refused: [string, string, unknown][] = [
    ['read_file', 'no path', {}],
    ['read_file', 'an empty path', { path: '' }],
    ['read_file', 'a number for a path', { path: 42 }],
    ['read_file', 'line 0 (lines are 1-based)', { path: '/w/a', line: 0 }],
    ['read_file', 'a fractional line', { path: '/w/a', line: 1.5 }],
    ['read_file', 'a negative limit', { path: '/w/a', limit: -1 }],
    ['read_file', 'an unknown argument', { path: '/w/a', offset: 3 }],
    ['definition', 'no character', { path: '/w/a', line: 1 }],
    ['hover', 'a string line', { path: '/w/a', line: '1', character: 1 }],
    ['diagnostics', 'an unknown severity', { severity: 'fatal' }],
    ['workspace_symbols', 'no query', {}],
    ['workspace_symbols', 'a huge query', { query: 'x'.repeat(501) }],
    ['open_editors', 'any argument', { all: true }],
    ['selection', 'not an object', 'everything'],
  ];
  for (const [tool, what, args] of refused) {
    it(`${tool} refuses ${what}`, () => {
      const parsed = parseToolArgs(tool as never, args);
      assert.equal(parsed.ok, false);
      assert.match((parsed as { error: string }).error, new RegExp(`^Invalid arguments for ${tool}: `));
    });
  }

  it('accepts what the descriptions promise, with optional arguments left out', () => {
    assert.deepEqual(parseToolArgs('read_file', { path: '/w/a', line: 3, limit: 10 }), { ok: true, args: { path: '/w/a', line: 3, limit: 10 } });
    assert.deepEqual(parseToolArgs('diagnostics', undefined), { ok: true, args: {} });
    assert.deepEqual(parseToolArgs('diagnostics', { severity: 'warning' }), { ok: true, args: { severity: 'warning' } });
  });
});

describe('editor context: caps and wording', () => {
  it('a list over the cap stops at a whole line and says how many were left out', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(90)}`);
    const text = cappedList('header:', lines, 250, 'narrow it', 2000);
    assert.ok(text.length <= 2000 + 200, `${text.length} characters`);
    const shown = text.split('\n').filter((l) => l.startsWith('line ')).length;
    assert.ok(shown > 5 && shown < 30, `${shown} shown`);
    assert.ok(text.endsWith(`[truncated: ${shown} of 250 shown, ${250 - shown} left out; narrow it]`), text.slice(-120));
    assert.ok(!cappedList('h:', ['a', 'b'], 2, 'x').includes('truncated'));
  });

  it('a text over the cap is cut at a line break, and counts what it kept', () => {
    const text = 'abcdefghi\n'.repeat(50);
    const capped = cappedText(text, 95);
    assert.equal(capped.truncated, true);
    assert.equal(capped.text, 'abcdefghi\n'.repeat(9));
    assert.equal(capped.lines, 9);
    assert.deepEqual(cappedText('one line without a break that is long', 10), { text: 'one line w', truncated: true, lines: 1 });
    assert.equal(countLines('a\nb'), 2);
    assert.equal(countLines('a\nb\n'), 2);
    assert.equal(countLines(''), 0);
  });

  it('a problem reads as path:line:column severity source(code): message, 1-based', () => {
    const p: Problem = { path: '/w/a.ts', span: span(0, 6, 0, 7), severity: 0, message: 'Type "string" is not\n  assignable.', source: 'ts', code: '2322' };
    assert.equal(problemLine(p), '/w/a.ts:1:7-1:8 error ts(2322): Type "string" is not assignable.');
    assert.equal(problemLine({ ...p, source: undefined, code: undefined, severity: 3 }), '/w/a.ts:1:7-1:8 hint: Type "string" is not assignable.');
  });
});

describe('editor context: the tools through the session sandbox', () => {
  const { root, outside, escapes } = escapeFixture('howdah-ec-');
  const sandbox = new Sandbox([root]);
  const file = path.join(root, 'src', 'a.ts');
  const editor = new FakeEditor();
  const call = editorToolHandler(() => sandbox, editor);

  beforeEach(() => {
    editor.asked.length = 0;
    editor.documents.clear();
    editor.documents.set(file, { text: 'const unsaved = 1;\nline two\nline three\n', unsaved: true });
  });

  for (const tool of ['read_file', 'definition', 'references', 'hover', 'document_symbols', 'diagnostics']) {
    it(`${tool} refuses every path of the escape corpus, and the editor is never asked`, async () => {
      for (const [what, p] of escapes) {
        const args = tool === 'read_file' || tool === 'document_symbols' || tool === 'diagnostics' ? { path: p } : { path: p, line: 1, character: 1 };
        const answer = await call(tool, args);
        assert.equal(answer.isError, true, `${what}: ${answer.text}`);
        // Either the schema refused a non-string, or the sandbox did, in its own words.
        assert.match(answer.text, /^(Refused path |Invalid arguments for )/, what);
      }
      assert.deepEqual(editor.asked, []);
    });
  }

  it('read_file gives the editor text, says it is unsaved, and where the next slice starts', async () => {
    const all = await call('read_file', { path: file });
    assert.equal(all.isError, undefined);
    assert.equal(all.text, `[${file}: lines 1-3 of 3, from the editor, with unsaved changes (the disk differs)]\nconst unsaved = 1;\nline two\nline three\n`);
    const slice = await call('read_file', { path: file, line: 2, limit: 1 });
    assert.equal(slice.text, `[${file}: lines 2-2 of 3, from the editor, with unsaved changes (the disk differs)]\nline two\n\n[more: continue with line=3]`);
    const past = await call('read_file', { path: file, line: 9 });
    assert.match(past.text, /no lines at 9 \(the file has 3\)/);
  });

  it('read_file of a huge document stops at the cap with a marker naming the next line', async () => {
    editor.documents.set(file, { text: `${'y'.repeat(99)}\n`.repeat(5000), unsaved: false });
    const answer = await call('read_file', { path: file });
    assert.ok(answer.text.length < MAX_OUTPUT_CHARS + 300, `${answer.text.length}`);
    const shown = answer.text.split('\n').filter((l) => l.startsWith('yyy')).length;
    assert.ok(shown < 2000 && shown > 900, `${shown} lines`);
    assert.ok(answer.text.endsWith(`[truncated at ${MAX_OUTPUT_CHARS} characters; continue with line=${shown + 1}]`), answer.text.slice(-100));
    assert.match(answer.text, /from the editor \(saved\)/);
  });

  it('diagnostics: 10,000 problems are capped, errors first, with counts; a severity filter and a file filter', async () => {
    editor.problems = Array.from({ length: 10_000 }, (_, i) => ({ path: path.join(root, `f${i % 7}.ts`), span: span(i, 1), severity: (i % 4) as 0 | 1 | 2 | 3, message: `problem ${i}` }));
    editor.problems.push({ path: path.join(outside, 'secret.ts'), span: span(0), severity: 0, message: 'outside' });
    const answer = await call('diagnostics', {});
    assert.ok(answer.text.length <= MAX_OUTPUT_CHARS + 300, `${answer.text.length}`);
    assert.match(answer.text, /^10000 problems in the workspace folders \(2500 error, 2500 warning, 2500 information, 2500 hint\):/);
    assert.match(answer.text, /\[truncated: \d+ of 10000 shown, \d+ left out; ask for one file \(path\) or a higher severity\]$/);
    assert.ok(!answer.text.includes('outside'), 'a problem outside the roots is not listed');
    const lines = answer.text.split('\n').slice(1, -1);
    assert.ok(lines.every((l) => / error: /.test(l)), 'errors come first');
    const errors = await call('diagnostics', { severity: 'error', path: path.join(root, 'f0.ts') });
    assert.match(errors.text, new RegExp(`^\\d+ problems in ${root.replace(/[/\\.]/g, '\\$&')}/f0\\.ts \\(\\d+ error\\):`));
  });

  it('places outside the roots (or behind a link leading out) are listed without their text; inside ones with their line', async () => {
    editor.places = [
      { path: file, span: span(1, 0, 1, 4) },
      { path: path.join(outside, 'secret.txt'), span: span(0) },
      { path: path.join(root, 'link-out'), span: span(0) },
    ];
    editor.documents.set(path.join(outside, 'secret.txt'), { text: 'secret', unsaved: false });
    editor.documents.set(path.join(root, 'link-out'), { text: 'secret', unsaved: false });
    const answer = await call('definition', { path: file, line: 1, character: 7 });
    assert.equal(
      answer.text,
      [
        `Definitions of ${file}:1:7 (3):`,
        `${file}:2:1-2:5: line two`,
        `${path.join(outside, 'secret.txt')}:1:1 (outside the workspace folders: text not shown)`,
        `${path.join(root, 'link-out')}:1:1 (outside the workspace folders: text not shown)`,
      ].join('\n'),
    );
    assert.ok(!answer.text.includes('secret\n') && !answer.text.endsWith('secret'));
  });

  it('open_editors and selection leave out what lies outside the roots', async () => {
    editor.editors = [
      { path: file, languageId: 'typescript', active: true, dirty: true, visibleRanges: [span(0, 0, 40, 0)] },
      { path: path.join(outside, 'secret.txt'), languageId: 'plaintext', active: false, dirty: false, visibleRanges: [] },
    ];
    const editors = await call('open_editors', {});
    assert.equal(editors.text, `1 open files (1 outside the workspace folders not listed); read the ones with unsaved changes with read_file:\n${file} (active, unsaved changes, typescript); visible 1:1-41:1`);
    editor.current = { path: file, selections: [{ span: span(1, 0, 1, 4), text: 'line' }, { span: span(2, 3), text: '' }] };
    assert.equal((await call('selection', {})).text, `Selections in ${file}:\n2:1-2:5:\nline\n\n3:4 (cursor, nothing selected)`);
    editor.current = { path: path.join(outside, 'secret.txt'), selections: [{ span: span(0, 0, 0, 6), text: 'secret' }] };
    const hidden = await call('selection', {});
    assert.ok(!hidden.text.includes('secret'), hidden.text);
  });

  it('an unknown tool and a failing editor are error answers, not exceptions', async () => {
    assert.deepEqual(await call('write_file', { path: file }), { text: 'Unknown tool "write_file".', isError: true });
    const failing = editorToolHandler(() => sandbox, Object.assign(new FakeEditor(), { definition: () => Promise.reject(new Error('the language server crashed')) }));
    assert.deepEqual(await failing('definition', { path: file, line: 1, character: 1 }), { text: 'the language server crashed', isError: true });
  });
});
