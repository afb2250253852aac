// The virtualised transcript (webview/markdown/blockVirtualizer.ts): a long answer's completed groups of blocks far
// from the viewport become placeholders holding their text; scrolling back renders them again, and find, copy,
// keyboard navigation, the scroll position and the sticky bottom work as if every block were rendered.
import { strict as assert } from 'node:assert';
import { chatHost } from './support/chatPage.mjs';
import { chatPagePerTest, send } from './support/chatPage.mjs';
import { agent, patch, snapshot, tool, turnEnd, user } from './support/fixtures.mjs';

/** A long answer: numbered paragraphs with a link each, and now and then a list, a code block and a table. */
function longAnswer(paragraphs) {
  const parts = [];
  for (let i = 0; i < paragraphs; i++) {
    parts.push(`Paragraph ${i}: marker-${i} holds **bold ${i}**, \`code${i}\` and [link ${i}](https://example.com/${i}) among words that fill the line.\n\n`);
    if (i % 25 === 7) parts.push(`- item ${i} one\n- item ${i} two\n\n`);
    if (i % 25 === 15) parts.push('```ts\n' + `const value${i} = ${i};\nconst next${i} = value${i} + 1;\n` + '```\n\n');
    if (i % 50 === 30) parts.push(`| name | value |\n|---|--:|\n| row${i} | ${i} |\n\n`);
  }
  return parts.join('');
}

const ANSWER = longAnswer(1500);

/** Streams `text` as the running turn's answer in patches of `size`, then ends the turn; waits until it is all shown. */
async function stream(page, text, { size = 30_000, entries = [], onPatch } = {}) {
  const index = entries.length + 1;
  const snap = snapshot({ entries: [user(1, 'Write a long answer.'), ...entries, agent(2, '')], turn: 'running' });
  await send(page, snap);
  for (let offset = 0; offset < text.length; offset += size) {
    await send(page, patch(snap, { op: 'append', index, offset, delta: text.slice(offset, offset + size) }));
    await onPatch?.();
  }
  await send(page, patch(snap, { op: 'entry', index: index + 1, entry: turnEnd(99, 'end_turn') }, { op: 'turn', turn: 'idle' }));
  await settle(page);
  return snap;
}

/** Waits for the page to render everything it was sent and the virtualiser to finish its work. */
async function settle(page) {
  const quiet = () => page.waitForFunction(() => window.__howdah.settled() && !window.__howdah.virtualizer().busy);
  await quiet();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));
  // (the frames drawn may have moved groups far away: their placeholders get their rendered text when idle)
  await quiet();
}

/** Waits for the end of an animated scroll (the browser's Page Up): the position the same over 200 ms. */
async function scrolled(page) {
  await page.waitForFunction(async () => {
    const el = document.querySelector('section.transcript');
    const before = el.scrollTop;
    await new Promise((r) => setTimeout(r, 200));
    return el.scrollTop === before;
  });
}

const placeholders = (page) => page.locator('.entry.agent .md-placeholder').count();
const transcript = (page) => page.locator('section.transcript');

describe('chat webview: virtualised transcript', function () {
  const chat = chatPagePerTest();

  it('keeps a long answer small in the DOM, follows its end while it streams, and shows the exact text of dropped blocks when scrolled back', async function () {
    let checks = 0;
    await stream(chat.page, ANSWER, {
      onPatch: async () => {
        // the sticky bottom: the reader who has not scrolled sees the end as it grows (once the page drew what it got)
        await settle(chat.page);
        const gap = await transcript(chat.page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
        assert.ok(gap < 40, `at the bottom while streaming (gap ${gap}px)`);
        checks++;
      },
    });
    assert.ok(checks > 5);
    assert.ok((await placeholders(chat.page)) > 10, 'far groups are placeholders');
    const elements = await chat.page.evaluate(() => document.querySelectorAll('*').length);
    const plainly = await chat.page.evaluate(() => document.querySelectorAll('.entry.agent p').length);
    assert.ok(plainly < 1000, `only the groups near the viewport are rendered (${plainly} paragraphs of 1,500, ${elements} elements)`);
    // Scrolled to the top, the first paragraphs are rendered again, exactly.
    await transcript(chat.page).evaluate((el) => { el.scrollTop = 0; });
    await chat.page.waitForFunction(() => document.querySelector('.entry.agent .md-blocks')?.classList.contains('md-placeholder') === false);
    // (drawn first: a group rendered again is skipped by content-visibility, its innerText empty, until a frame shows it)
    await settle(chat.page);
    assert.equal(await transcript(chat.page).evaluate((el) => el.scrollTop), 0, 'still at the top');
    const first = await chat.page.locator('.entry.agent p').first().innerText();
    assert.equal(first, 'Paragraph 0: marker-0 holds bold 0, code0 and link 0 among words that fill the line.');
    assert.equal(await chat.page.locator('.entry.agent strong').first().innerText(), 'bold 0');
    // and the end, now far, is dropped in its turn
    await settle(chat.page);
    assert.ok((await placeholders(chat.page)) > 10);
  });

  it('leaves far placeholders unobserved while the reader follows the end; content that shrinks, a taller view and a scroll up observe them again', async function () {
    const stats = () => chat.page.evaluate(() => window.__howdah.virtualizer());
    // every group on screen is rendered (none a placeholder): what an unobserved placeholder come into view would break
    const inViewRendered = () => chat.page.waitForFunction(() => {
      const view = document.querySelector('section.transcript').getBoundingClientRect();
      const shown = [...document.querySelectorAll('.entry.agent .md-blocks')].filter((g) => {
        const r = g.getBoundingClientRect();
        return r.bottom > view.top && r.top < view.bottom;
      });
      // (one at least that the virtualiser handles: the message's last group is never a placeholder)
      return shown.some((g) => g.classList.contains('md-blocks-done')) && shown.every((g) => !g.classList.contains('md-placeholder'));
    }, undefined, { timeout: 10_000 });
    await stream(chat.page, ANSWER);
    const resting = (await stats()).resting;
    assert.ok(resting > 10, `far placeholders rest (${resting})`);
    // A view resized a little (nothing near changes, the content keeps its height): every one is observed again.
    await chat.page.evaluate(() => {
      window.__observed = 0;
      const observe = IntersectionObserver.prototype.observe;
      IntersectionObserver.prototype.observe = function (target) {
        window.__observed++;
        return observe.call(this, target);
      };
    });
    await chat.page.setViewportSize({ width: 420, height: 820 });
    await settle(chat.page);
    assert.ok(await chat.page.evaluate(() => window.__observed) >= resting, 'the resting placeholders are observed again');
    // A taller view shows more of the answer above the end.
    await chat.page.setViewportSize({ width: 420, height: 6000 });
    await inViewRendered();
    await settle(chat.page);
    // Something tall after the answer: every group goes far. Taken away, the end of the answer is in view again.
    await transcript(chat.page).evaluate((el) => el.querySelector('.entries').append(Object.assign(document.createElement('div'), { id: 'tall', style: 'height:30000px' })));
    await settle(chat.page);
    // (the message's last group stays as it is: it is never handed to the virtualiser)
    await chat.page.waitForFunction(() => document.querySelectorAll('.entry.agent .md-blocks-done:not(.md-placeholder)').length === 0);
    await chat.page.evaluate(() => document.getElementById('tall').remove());
    await inViewRendered();
    await chat.page.setViewportSize({ width: 420, height: 800 });
    await settle(chat.page);
    assert.ok((await stats()).resting > 10);
    // The reader scrolls up: the placeholders are observed again, and those that come into view are rendered.
    await transcript(chat.page).evaluate((el) => { el.scrollTop = el.scrollHeight / 3; });
    await chat.page.waitForFunction(() => window.__howdah.virtualizer().resting === 0);
    await inViewRendered();
  });

  it('lets go of the groups of an answer trimmed from the page by the entries after it', async function () {
    const stats = () => chat.page.evaluate(() => window.__howdah.virtualizer());
    const snap = await stream(chat.page, longAnswer(300));
    assert.ok((await stats()).tracked > 2, `the answer's groups are tracked (${(await stats()).tracked})`);
    // Short exchanges after it (one group each, never handed to the virtualiser), until the answer is trimmed.
    const ops = [];
    for (let i = 0; i < 100; i++) ops.push({ op: 'entry', index: 3 + i, entry: i % 2 ? agent(100 + i, `Answer ${i}.`) : user(100 + i, `Question ${i}?`) });
    await send(chat.page, patch(snap, ...ops));
    await settle(chat.page);
    assert.equal(await chat.page.locator('.entry.agent', { hasText: 'marker-0 ' }).count(), 0, 'the long answer left the page');
    assert.equal((await stats()).tracked, 0);
  });

  it('keeps following the end when the page grows between a scroll to the end and that scroll’s event', async function () {
    await stream(chat.page, longAnswer(200));
    const gap = () => transcript(chat.page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    assert.ok((await gap()) < 40);
    // In one task, as the page does while streaming: content grows, the end is followed, and more content lands
    // before the browser dispatches the scroll event (a frame later), which then sees a gap the reader did not make.
    await transcript(chat.page).evaluate((el) => {
      const grow = (px) => el.querySelector('.entries').append(Object.assign(document.createElement('div'), { style: `height:${px}px` }));
      grow(2000);
      el.scrollTop = el.scrollHeight;
      grow(5000);
    });
    await settle(chat.page);
    assert.ok((await gap()) < 40, `still at the end (gap ${await gap()}px)`);
    // The reader's own scroll up lets go of the end: growth no longer moves the view.
    await transcript(chat.page).evaluate((el) => { el.scrollTop -= 800; });
    await settle(chat.page);
    const top = await transcript(chat.page).evaluate((el) => el.scrollTop);
    await transcript(chat.page).evaluate((el) => el.querySelector('.entries').append(Object.assign(document.createElement('div'), { style: 'height:3000px' })));
    await settle(chat.page);
    assert.equal(await transcript(chat.page).evaluate((el) => el.scrollTop), top, 'a reader who scrolled up stays where they are');
  });

  it('lets go of the end on the wheel turned up and on Page Up, while the answer still grows', async function () {
    await stream(chat.page, longAnswer(200));
    const view = transcript(chat.page);
    const grow = () => view.evaluate((el) => el.querySelector('.entries').append(Object.assign(document.createElement('div'), { style: 'height:2000px' })));
    await view.hover();
    await chat.page.mouse.wheel(0, -600);
    await grow();
    await settle(chat.page);
    const top = await view.evaluate((el) => el.scrollTop);
    assert.ok(await view.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight) > 1000, 'the wheel up left the end');
    await grow();
    await settle(chat.page);
    assert.equal(await view.evaluate((el) => el.scrollTop), top, 'and growth does not take the reader back down');
    // End goes back to the end and follows it again; Page Up lets go again.
    await view.focus();
    await chat.page.keyboard.press('End');
    await grow();
    await settle(chat.page);
    assert.ok((await view.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)) < 40, 'End follows the end again');
    await chat.page.keyboard.press('PageUp');
    await settle(chat.page);
    await scrolled(chat.page);
    const paged = await view.evaluate((el) => el.scrollTop);
    await grow();
    await settle(chat.page);
    assert.equal(await view.evaluate((el) => el.scrollTop), paged, 'Page Up let go of the end');
  });

  it('copies a selection of the whole answer with the same text as a page that keeps every block', async function () {
    await stream(chat.page, ANSWER);
    assert.ok((await placeholders(chat.page)) > 10);
    const whole = (page) => page.evaluate(() => {
      const md = document.querySelector('.entry.agent .md');
      document.getSelection().selectAllChildren(md);
      return document.getSelection().toString();
    });
    const copied = async (page) => {
      // what the clipboard gets: the browser's own copy of the selection
      await page.keyboard.press('Control+C');
      return page.evaluate(() => navigator.clipboard.readText());
    };
    await chat.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const ours = await whole(chat.page);
    const oursCopied = await copied(chat.page);
    const reference = await (await chatHost()).open();
    try {
      await reference.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await reference.page.evaluate(() => window.__howdah.configure({ virtualize: false }));
      await stream(reference.page, ANSWER);
      assert.equal(await placeholders(reference.page), 0);
      const theirs = await whole(reference.page);
      assert.ok(theirs.includes('Paragraph 1499: marker-1499') && theirs.includes('const value15 = 15;\nconst next15 = value15 + 1;'));
      // the selection's own text has every word (placeholders hold the blocks' innerText)…
      const words = (t) => t.replace(/\s+/g, '');
      assert.equal(words(ours), words(theirs));
      // …and a copy gives exactly what the page that keeps every block gives
      const theirsCopied = await copied(reference.page);
      assert.equal(theirsCopied, theirs);
      assert.equal(oursCopied.length, theirsCopied.length, 'same length');
      assert.equal(oursCopied, theirsCopied);
    } finally {
      await reference.close();
    }
  });

  it('finds text of dropped blocks with the browser’s find (as VS Code’s webview find does) and renders the match', async function () {
    await stream(chat.page, ANSWER);
    assert.ok((await placeholders(chat.page)) > 10);
    for (const i of [3, 400, 901, 1498]) {
      const found = await chat.page.evaluate((word) => window.find(word, false, false, true), `marker-${i} holds`);
      assert.equal(found, true, `marker-${i} found`);
    }
    // as the reader sees it, without the Markdown around the words (placeholders hold their source until the page is
    // idle: those the finds above put far away too)
    await settle(chat.page);
    for (const i of [40, 700]) {
      const found = await chat.page.evaluate((words) => window.find(words, false, false, true), `holds bold ${i}, code${i} and link ${i} among`);
      assert.equal(found, true, `paragraph ${i} found as shown`);
    }
    // The last match is rendered once scrolled into view, and stays selected there: find next goes on from it.
    await chat.page.evaluate(() => { document.getSelection().collapse(document.body, 0); });
    assert.equal(await chat.page.evaluate(() => window.find('marker-5 holds', false, false, true)), true);
    await chat.page.waitForFunction(() => document.getSelection().anchorNode?.parentElement?.closest('p') !== null);
    await settle(chat.page);
    assert.equal(await chat.page.evaluate(() => document.getSelection().toString()), 'marker-5 holds');
    assert.equal(await chat.page.evaluate(() => document.getSelection().anchorNode.parentElement.closest('p').textContent.startsWith('Paragraph 5:')), true);
    assert.equal(await chat.page.evaluate(() => window.find('marker-6 holds', false, false, true)), true);
    await settle(chat.page);
    assert.equal(await chat.page.evaluate(() => document.getSelection().anchorNode.parentElement.closest('p').textContent.startsWith('Paragraph 6:')), true);
  });

  it('gives placeholders their rendered text a group per idle callback when a group costs more than the slice', async function () {
    // Every group's layout made to cost more than the 6 ms slice, whatever the machine's speed (the page lays a
    // polished group out with a range's bounding rectangle, and nothing else asks a range for it). A slowed-down CPU
    // did not make every group costly: groups run from a few hundred characters to 16 KB, and two small ones rightly
    // share a slice. Counting only the render's time, the slice took a second group after the first and laid out both.
    await chat.page.evaluate(() => {
      const layOut = Range.prototype.getBoundingClientRect;
      Range.prototype.getBoundingClientRect = function () {
        for (const until = performance.now() + 8; performance.now() < until;);
        return layOut.call(this);
      };
    });
    await stream(chat.page, ANSWER);
    const stats = await chat.page.evaluate(() => window.__howdah.virtualizer());
    assert.ok(stats.tracked > 10, `groups (${stats.tracked})`);
    assert.equal(stats.mostPolished, 1, `one group per idle callback (${JSON.stringify(stats)})`);
    const sources = await chat.page.locator('.entry.agent .md-placeholder').evaluateAll((els) => els.filter((el) => el.textContent.includes('**bold')).length);
    assert.equal(sources, 0, 'every placeholder holds the rendered text');
    assert.ok((await placeholders(chat.page)) > 10);
  });

  it('keeps the block in view in place when a block above changes height (a tool card unfolded, groups rendered again)', async function () {
    const card = tool(3, { kind: 'execute', title: 'Run the tests', rawInput: JSON.stringify({ command: 'npm test', lines: Array.from({ length: 80 }, (_, i) => `line ${i}`) }, null, 2) });
    await stream(chat.page, ANSWER, { entries: [card] });
    // the reader scrolls up to paragraph 700 (its group had become a placeholder)
    const top = async () => chat.page.evaluate(() => [...document.querySelectorAll('.entry.agent p')].find((p) => p.textContent.startsWith('Paragraph 700:'))?.getBoundingClientRect().top);
    // (to its placeholder: where it is in the page depends on how much of the answer streamed in as text, by frame)
    const wasPlaceholder = await chat.page.evaluate(() => {
      const group = [...document.querySelectorAll('.entry.agent .md-blocks')].find((e) => e.textContent.includes('Paragraph 700:'));
      const box = document.querySelector('section.transcript');
      box.scrollTop += group.getBoundingClientRect().top - box.getBoundingClientRect().top;
      return group.classList.contains('md-placeholder');
    });
    assert.equal(wasPlaceholder, true, "paragraph 700's group was a placeholder before the reader came to it");
    await settle(chat.page);
    await chat.page.evaluate(() => {
      const p = [...document.querySelectorAll('.entry.agent p')].find((e) => e.textContent.startsWith('Paragraph 700:'));
      const box = document.querySelector('section.transcript');
      box.scrollTop += p.getBoundingClientRect().top - box.getBoundingClientRect().top - 200;
    });
    await settle(chat.page);
    const before = await top();
    assert.ok(before !== undefined);
    // everything above unfolds: the tool card's raw input, far above the viewport
    const height = await transcript(chat.page).evaluate((el) => el.scrollHeight);
    await chat.page.evaluate(() => { for (const d of document.querySelectorAll('.entry.tool-entry details')) d.open = true; });
    await settle(chat.page);
    const grew = (await transcript(chat.page).evaluate((el) => el.scrollHeight)) - height;
    assert.ok(grew > 100, `the card grew (${grew}px)`);
    const after = await top();
    assert.ok(Math.abs(after - before) < 2, `paragraph 700 stayed in place (${before} → ${after})`);
  });

  it('walks the answer with the keyboard: Home and End, and Tab through its links from group to group', async function () {
    await stream(chat.page, ANSWER);
    await transcript(chat.page).focus();
    await chat.page.keyboard.press('Home');
    await chat.page.waitForFunction(() => document.querySelector('section.transcript').scrollTop === 0);
    await settle(chat.page);
    assert.equal(await chat.page.locator('.entry.agent p').first().innerText(), 'Paragraph 0: marker-0 holds bold 0, code0 and link 0 among words that fill the line.');
    // Tab from link to link: the order crosses the groups' boundaries (the next group is rendered when focus nears it)
    await chat.page.locator('.entry.agent a').first().focus();
    const hrefs = [];
    for (let i = 0; i < 60; i++) {
      await chat.page.keyboard.press('Tab');
      hrefs.push(await chat.page.evaluate(() => document.activeElement?.getAttribute('href')));
    }
    const links = hrefs.filter((h) => h?.startsWith('https://example.com/')).map((h) => Number(h.split('/').pop()));
    assert.ok(links.length >= 50 && links.every((n, i) => i === 0 || n === links[i - 1] + 1), `links in order: ${links.join(',')}`);
    await transcript(chat.page).focus();
    await chat.page.keyboard.press('End');
    await settle(chat.page);
    assert.equal(await chat.page.locator('.entry.agent p').last().innerText(), 'Paragraph 1499: marker-1499 holds bold 1499, code1499 and link 1499 among words that fill the line.');
  });
});
