import { strict as assert } from 'node:assert';
import { BIDI_RE, hasInvisible, INVISIBLE_RE, revealInvisible, splitInvisible, stripAnsi } from '../../../src/shared/textSafety';

describe('panel text safety: hidden characters', () => {
  const hidden = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u{E0000}', '\u{E0041}', '\u{E007F}'];
  for (const ch of hidden) {
    const label = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    it(`reveals ${label}`, () => {
      assert.equal(revealInvisible(`a${ch}b`), `a⟨${label}⟩b`);
      assert.ok(hasInvisible(`x${ch}`));
    });
  }

  it('reveals control characters (an escape in a command is shown, not obeyed), keeping tabs and newlines', () => {
    assert.equal(revealInvisible('rm\u001b[2K -rf'), 'rm⟨U+001B⟩[2K -rf');
    assert.equal(revealInvisible('a\rb\u0085c'), 'a⟨U+000D⟩b⟨U+0085⟩c');
    assert.equal(revealInvisible('a\tb\nc'), 'a\tb\nc');
  });

  it('splits text around hidden characters, keeping the rest', () => {
    assert.deepEqual(splitInvisible('rm -rf /\u2066 # ok\u2069'), ['rm -rf /', { hidden: '\u2066', label: 'U+2066' }, ' # ok', { hidden: '\u2069', label: 'U+2069' }]);
    assert.deepEqual(splitInvisible('plain'), ['plain']);
    assert.deepEqual(splitInvisible(''), []);
  });

  it('leaves ordinary text, RTL letters and emoji alone', () => {
    for (const text of ['hello', 'שלום עולם', 'مرحبا', '👍🏽', 'naïve café']) {
      assert.equal(revealInvisible(text), text);
      assert.equal(hasInvisible(text), false);
    }
  });

  it('in prose, reveals only the reordering controls (a ZWJ emoji stays whole)', () => {
    const family = '👨\u200D👩\u200D👧';
    assert.equal(revealInvisible(family, BIDI_RE), family);
    assert.equal(revealInvisible('file\u202Etxt.exe', BIDI_RE), 'file⟨U+202E⟩txt.exe');
  });

  it('does not keep regex state between calls', () => {
    for (let i = 0; i < 3; i++) assert.equal(hasInvisible('a\u200Bb'), true);
    assert.equal(INVISIBLE_RE.lastIndex, 0);
  });
});

describe('panel text safety: terminal escapes', () => {
  const cases: [string, string, string][] = [
    ['SGR colours', '\u001b[31mred\u001b[0m plain', 'red plain'],
    ['cursor movement and erase', '\u001b[2J\u001b[Hcleared\u001b[K', 'cleared'],
    ['private modes', '\u001b[?25lhidden cursor\u001b[?25h', 'hidden cursor'],
    ['OSC title with BEL', '\u001b]0;title\u0007after', 'after'],
    ['OSC 8 hyperlink with ST', '\u001b]8;;https://x\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['8-bit CSI', '\u009b31mC1\u009b0m', 'C1'],
    ['DCS string', '\u001bPq#0;2;0;0;0\u001b\\after', 'after'],
    ['a two-byte escape', '\u001b=keypad\u001b>', 'keypad'],
    ['charset selection', '\u001b(Bascii', 'ascii'],
    ['a sequence cut at the end', 'text\u001b[3', 'text'],
    ['a lone ESC at the end', 'text\u001b', 'text'],
    ['C0 controls (a backspace erases, as a terminal shows it)', 'a\u0000b\u0007c\u0008d', 'abd'],
    ['CRLF', 'one\r\ntwo\r\n', 'one\ntwo\n'],
    ['a progress line overwritten by CR', 'progress 10%\rprogress 100%\ndone', 'progress 100%\ndone'],
    ['a shorter overwrite', 'abcdef\rXY', 'XYcdef'],
    ['tabs and newlines kept', 'a\tb\nc', 'a\tb\nc'],
  ];
  for (const [what, input, expected] of cases) {
    it(`strips ${what}`, () => assert.equal(stripAnsi(input), expected));
  }

  it('returns a megabyte of plain text unchanged', () => {
    const text = 'x'.repeat(1_000_000);
    assert.equal(stripAnsi(text), text);
  });
});
