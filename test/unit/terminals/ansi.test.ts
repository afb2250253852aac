import { strict as assert } from 'node:assert';
import { hasInvisible as hasHidden, removeInvisible as removeHidden, revealInvisible as revealHidden } from '../../../src/shared/textSafety';
import { AnsiStripper, stripAnsi, toTerminalNewlines } from '../../../src/shared/ansi';

describe('terminals: control sequences', () => {
  const cases: [string, string, string][] = [
    ['plain text', 'hello\nworld', 'hello\nworld'],
    ['SGR colours', '\x1b[1;31mred\x1b[0m and \x1b[38;5;208morange\x1b[m', 'red and orange'],
    ['truecolor', '\x1b[38;2;255;0;0mX\x1b[0m', 'X'],
    ['cursor moves and erase', 'a\x1b[2K\x1b[1A\x1b[10Cb\x1b[?25l\x1b[?25h', 'ab'],
    ['OSC title ended by BEL', '\x1b]0;my title\x07text', 'text'],
    ['OSC 8 hyperlink ended by ST', '\x1b]8;;https://x.invalid\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['DCS string', '\x1bPq#0;2;0;0;0\x1b\\after', 'after'],
    ['two-byte escapes', '\x1b7saved\x1b8\x1bc\x1b=', 'saved'],
    ['charset designation', '\x1b(Bascii\x1b)0', 'ascii'],
    ['8-bit CSI', '\x9b31mred\x9b0m', 'red'],
    ['C0 controls dropped, tab kept', 'a\x07b\x00c\td', 'abc\td'],
    ['CR LF is a line break', 'one\r\ntwo\r\n', 'one\ntwo\n'],
    ['CR overwrites the line (progress bars)', 'progress 10%\rprogress 55%\rprogress 100%\ndone', 'progress 100%\ndone'],
    ['a shorter overwrite keeps the rest', 'abcdef\rXY', 'XYcdef'],
    ['backspace erases', 'abc\b\bX', 'aXc'],
    ['sequence cut off at the end', 'text\x1b[31', 'text'],
    ['lone ESC at the end', 'text\x1b', 'text'],
    ['emoji and non-ASCII survive', '\x1b[1m🐘 Ünïcödé\x1b[0m', '🐘 Ünïcödé'],
    ['DEL and C1 dropped', 'a\x7fb\x85c', 'abc'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.equal(stripAnsi(input), expected));
  }

  it('a sequence split across chunks is still removed', () => {
    const s = new AnsiStripper();
    const whole = '\x1b[1;32mgreen\x1b[0m \x1b]0;title\x07done';
    for (let cut = 0; cut <= whole.length; cut++) {
      const fresh = new AnsiStripper();
      assert.equal(fresh.push(whole.slice(0, cut)) + fresh.push(whole.slice(cut)), 'green done', `cut at ${cut}`);
    }
    assert.equal(s.push('a\x1b['), 'a');
    assert.equal(s.push('0mb'), 'b');
  });

  it('toTerminalNewlines: bare LF becomes CR LF, CR LF stays, also across chunks', () => {
    assert.equal(toTerminalNewlines('a\nb\r\nc'), 'a\r\nb\r\nc');
    assert.equal(toTerminalNewlines('\nx', true), '\nx');
    assert.equal(toTerminalNewlines('\nx', false), '\r\nx');
    assert.equal(toTerminalNewlines('no newline'), 'no newline');
  });

  it('hidden characters are revealed, detected and removable', () => {
    const tricky = 'echo safe\u202e; rm -rf ~\u200b';
    assert.ok(hasHidden(tricky));
    assert.equal(revealHidden(tricky), 'echo safe⟨U+202E⟩; rm -rf ~⟨U+200B⟩');
    assert.equal(removeHidden(tricky), 'echo safe; rm -rf ~');
    assert.ok(hasHidden('a\x1b[31mb'));
    assert.ok(!hasHidden('plain 🐘 é\ttab'));
  });
});
