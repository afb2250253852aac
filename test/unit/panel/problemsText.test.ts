import { strict as assert } from 'node:assert';
import { MAX_PROBLEMS, problemsText, type Problem } from '../../../src/panel/problemsText';

const p = (path: string, line: number, severity: Problem['severity'], message: string, extra: Partial<Problem> = {}): Problem => ({ path, line, column: 1, severity, message, ...extra });

describe('problems for an agent', () => {
  it('one line each, errors first, then by file and line; source and code said; a message kept on one line', () => {
    const text = problemsText([
      p('b.ts', 3, 'warning', 'unused', { source: 'eslint', code: 'no-unused-vars' }),
      p('a.ts', 9, 'error', 'Type "x" is not\n  assignable', { source: 'ts', code: '2322' }),
      p('a.ts', 2, 'error', 'missing ;'),
      p('a.ts', 1, 'hint', 'could be const', { code: 'prefer-const' }),
    ]);
    assert.deepEqual(text.split('\n'), [
      'a.ts:2:1 error: missing ;',
      'a.ts:9:1 error ts(2322): Type "x" is not assignable',
      'b.ts:3:1 warning eslint(no-unused-vars): unused',
      'a.ts:1:1 hint (prefer-const): could be const',
    ]);
  });

  it(`lists at most ${MAX_PROBLEMS} and counts the rest`, () => {
    const many = Array.from({ length: MAX_PROBLEMS + 5 }, (_, i) => p('a.ts', i + 1, 'error', `e${i}`));
    const lines = problemsText(many).split('\n');
    assert.equal(lines.length, MAX_PROBLEMS + 1);
    assert.equal(lines.at(-1), '… and 5 more not listed.');
  });
});
