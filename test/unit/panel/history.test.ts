import { strict as assert } from 'node:assert';
import { PromptHistory } from '../../../webview/prompt/history';

describe('webview prompt history', () => {
  it('walks back and forth and restores the draft', () => {
    const history = new PromptHistory(['one', 'two']);
    assert.equal(history.previous('draft'), 'two');
    assert.equal(history.previous('two'), 'one');
    assert.equal(history.previous('one'), undefined);
    assert.equal(history.next(), 'two');
    assert.equal(history.next(), 'draft');
    assert.equal(history.next(), undefined);
  });

  it('skips blanks and repeats, and keeps at most `max` entries', () => {
    const history = new PromptHistory([], 3);
    for (const text of ['a', 'a', ' ', 'b', 'c', 'd']) history.push(text);
    assert.deepEqual(history.entries, ['b', 'c', 'd']);
  });
});
