// An answer flooding in faster than the page takes it (src/panel/floodGaps.ts, webview/render/floodGap.ts): the host
// sends its newest text first with how much it skips; the page shows the newest text at once after a gap, and the
// whole answer, in order and findable, once the skipped text has filled the gap.
import { strict as assert } from 'node:assert';
import { chatPagePerTest, send } from './support/chatPage.mjs';
import { agent, header, patch, snapshot, user } from './support/fixtures.mjs';

const START = 'Start of the answer.\n\n';
const paragraph = (i) => `Paragraph ${i}: marker-${i} holds **bold ${i}** and \`code${i}\` among words that fill the line.\n\n`;
const paragraphs = (from, to) => Array.from({ length: to - from }, (_, i) => paragraph(from + i)).join('');

/** Waits for the page to render everything it was sent and the virtualiser to finish its work. */
async function settle(page) {
  const quiet = () => page.waitForFunction(() => window.__howdah.settled() && !window.__howdah.virtualizer().busy);
  await quiet();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));
  await quiet();
}

/**
 * A running answer of paragraphs 0…`total` flooding in: the page gets the text from paragraph `newestFrom` on, after a
 * gap for the text skipped (`skip` characters).
 */
async function startFlood(page, total, newestFrom) {
  const snap = snapshot({ entries: [user(1, 'Write a long answer.'), agent(2, START)], turn: 'running' });
  await send(page, snap);
  const whole = START + paragraphs(0, total);
  const newestAt = START.length + whole.slice(START.length).indexOf(`Paragraph ${newestFrom}:`);
  const skip = newestAt - START.length;
  await send(page, patch(snap, { op: 'append', index: 1, offset: START.length, skip, delta: whole.slice(newestAt) }));
  await settle(page);
  return { snap, whole, skip };
}

/** The numbers of the paragraphs in the answer's text, in page order (rendered groups and placeholders alike). */
const numbersShown = (page) => page.evaluate(() => [...(document.querySelector('.entry.agent').textContent.matchAll(/Paragraph (\d+): marker/g))].map((m) => Number(m[1])));

/** Whether the transcript shows its end. */
const atEnd = (page) => page.evaluate(() => {
  const el = document.querySelector('section.transcript');
  return el.scrollHeight - el.scrollTop - el.clientHeight < 40;
});

describe('chat webview: an answer flooding in', function () {
  const chat = chatPagePerTest();

  it('shows the newest text at once after a gap, and the whole answer in order once the gap fills', async function () {
    const { page } = chat;
    const { snap, whole, skip } = await startFlood(page, 3000, 2800);
    assert.match(await page.locator('.entry.agent .flood-gap').textContent(), /on its way \([\d,.\s ]+ characters\)/);
    const shown = await numbersShown(page);
    assert.deepEqual(shown.slice(-3), [2997, 2998, 2999], 'the newest text is there');
    assert.equal(shown[0], 2800, 'nothing of the skipped text yet');
    assert.equal(await atEnd(page), true, 'the reader sees the end');
    const gapHeight = await page.locator('.entry.agent .flood-gap').evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(gapHeight > 10_000, `the gap stands for the text on its way (${gapHeight}px)`);

    // more of the newest text, then the skipped text in three fills, the last closing the gap
    const more = paragraphs(3000, 3010);
    await send(page, patch(snap, { op: 'append', index: 1, offset: whole.length, delta: more }));
    const third = Math.ceil(skip / 3);
    for (let at = 0; at < skip; at += third) {
      await send(page, patch(snap, { op: 'fill', index: 1, offset: START.length + at, delta: whole.slice(START.length + at, START.length + Math.min(skip, at + third)) }));
    }
    await send(page, patch(snap, { op: 'turn', turn: 'idle' }));
    await settle(page);
    assert.equal(await page.locator('.entry.agent .flood').count(), 0, 'the gap closed');
    assert.deepEqual(await numbersShown(page), Array.from({ length: 3010 }, (_, i) => i), 'every paragraph once, in order');
    assert.equal(await atEnd(page), true);
    assert.equal(await page.evaluate(() => window.__howdah.resyncs()), 0, 'no patch missed the page’s copy');
    // found where the gap was, as the reader sees it
    assert.equal(await page.evaluate(() => window.find('marker-1500 holds bold 1500', false, false, true)), true);
  });

  it('gives the placeholders of a flooded answer their rendered text laying out those alone, not the groups between them', async function () {
    const { page } = chat;
    // Every layout query of the virtualiser's polishing: the groups its range holds that are placeholders still
    // holding their Markdown source, or rendered groups (either laid out for nothing: most of its time at 10 MiB).
    await page.evaluate(() => {
      window.__layoutQueries = [];
      const query = Range.prototype.getBoundingClientRect;
      Range.prototype.getBoundingClientRect = function () {
        if (new Error().stack.includes('polish')) {
          const groups = [...document.querySelectorAll('.entry.agent .md-blocks')].filter((g) => this.intersectsNode(g));
          window.__layoutQueries.push({
            groups: groups.length,
            source: groups.filter((g) => g.classList.contains('md-placeholder') && g.textContent.includes('**bold')).length,
            rendered: groups.filter((g) => !g.classList.contains('md-placeholder')).length,
          });
        }
        return query.call(this);
      };
    });
    const { snap, whole, skip } = await startFlood(page, 3000, 2000);
    for (let at = 0; at < skip; at += 20_000) {
      await send(page, patch(snap, { op: 'fill', index: 1, offset: START.length + at, delta: whole.slice(START.length + at, START.length + Math.min(skip, at + 20_000)) }));
    }
    await send(page, patch(snap, { op: 'turn', turn: 'idle' }));
    await settle(page);
    assert.deepEqual(await numbersShown(page), Array.from({ length: 3000 }, (_, i) => i));
    const queries = await page.evaluate(() => window.__layoutQueries);
    assert.ok(queries.length > 3, `the placeholders were polished (${queries.length} layout queries)`);
    const wasted = queries.filter((q) => q.source > 0 || q.rendered > 0);
    assert.deepEqual(wasted, [], `of ${queries.length} layout queries, these held groups not polished with them`);
    assert.equal(await page.evaluate(() => window.find('marker-1500 holds bold 1500', false, false, true)), true);
  });

  it('keeps the gap and the newest text when the page renders everything again mid-flood (other workspace folders)', async function () {
    const { page } = chat;
    const { snap, whole, skip } = await startFlood(page, 2000, 1900);
    // paths on screen are relative to the folders: new folders render every entry again
    await send(page, patch(snap, { op: 'header', header: header({ workspaceFolders: [{ name: 'other', path: '/other' }] }) }));
    await settle(page);
    assert.equal(await page.locator('.entry.agent .flood-gap').count(), 1, 'the gap is still shown');
    const more = paragraphs(2000, 2005);
    await send(page, patch(snap, { op: 'append', index: 1, offset: whole.length, delta: more }));
    await settle(page);
    assert.deepEqual(await numbersShown(page), Array.from({ length: 105 }, (_, i) => 1900 + i), 'the newest text whole, then what came after it');
    await send(page, patch(snap, { op: 'fill', index: 1, offset: START.length, delta: whole.slice(START.length, START.length + skip) }));
    await settle(page);
    assert.deepEqual(await numbersShown(page), Array.from({ length: 2005 }, (_, i) => i));
    assert.equal(await page.locator('.entry.agent .flood').count(), 0);
  });

  it('joins the newest text to the answer as it is on the page when the gap closes: nothing rendered again, the end never gone', async function () {
    const { page } = chat;
    const { snap, whole, skip } = await startFlood(page, 3000, 1500);
    const newest = await page.locator('.entry.agent .flood .md > .md-blocks').count();
    await page.evaluate(() => document.querySelectorAll('.entry.agent .flood .md > .md-blocks').forEach((el) => (el.dataset.newest = '')));
    const half = Math.ceil(skip / 2);
    await send(page, patch(snap, { op: 'fill', index: 1, offset: START.length, delta: whole.slice(START.length, START.length + half) }));
    await settle(page);
    // in one patch: more newest text while the gap is open, the fill that closes it, and text after the newest
    const grown = paragraphs(3000, 3003);
    const close = patch(
      snap,
      { op: 'append', index: 1, offset: whole.length, delta: grown },
      { op: 'fill', index: 1, offset: START.length + half, delta: whole.slice(START.length + half, START.length + skip) },
      { op: 'append', index: 1, offset: whole.length + grown.length, delta: paragraphs(3003, 3005) },
    );
    const frames = await page.evaluate(async (message) => {
      const ends = [];
      window.postMessage(message, '*');
      for (let i = 0; i < 30; i++) {
        await new Promise((r) => requestAnimationFrame(r));
        ends.push(document.querySelector('.entry.agent').textContent.includes('marker-2999 holds'));
        if (i > 3 && window.__howdah.settled()) break;
      }
      return ends;
    }, close);
    assert.ok(frames.every(Boolean), `the newest text's end is on the page in every frame after the gap closed: ${frames}`);
    await settle(page);
    assert.equal(await page.locator('.entry.agent .flood').count(), 0, 'the gap closed');
    assert.equal(await page.locator('.entry.agent .md [data-newest]').count(), newest, 'the newest text was moved into the answer, not rendered again');
    assert.deepEqual(await numbersShown(page), Array.from({ length: 3005 }, (_, i) => i), 'every paragraph once, in order');
    assert.equal(await page.evaluate(() => window.__howdah.resyncs()), 0);
    assert.equal(await atEnd(page), true);
    assert.equal(await page.evaluate(() => window.find('marker-3002 holds bold 3002', false, false, true)), true);
    assert.equal(await page.evaluate(() => window.find('marker-1600 holds bold 1600', false, false, true)), true);
  });

  it('replaces the newest text when a second flood comes before the gap closed', async function () {
    const { page } = chat;
    const snap = snapshot({ entries: [user(1, 'Write a long answer.'), agent(2, START)], turn: 'running' });
    await send(page, snap);
    const whole = START + paragraphs(0, 4000);
    const cut = (n) => START.length + whole.slice(START.length).indexOf(`Paragraph ${n}:`);
    const first = cut(1800);
    await send(page, patch(snap, { op: 'append', index: 1, offset: START.length, skip: first - START.length, delta: whole.slice(first, cut(2000)) }));
    await send(page, patch(snap, { op: 'fill', index: 1, offset: START.length, delta: whole.slice(START.length, cut(100)) }));
    await settle(page);
    const second = cut(3900);
    await send(page, patch(snap, { op: 'append', index: 1, offset: cut(100), skip: second - cut(100), delta: whole.slice(second) }));
    await settle(page);
    const shown = await numbersShown(page);
    assert.deepEqual([shown[99], shown[100]], [99, 3900], 'the text held, then only the second flood’s newest text');
    assert.equal(shown.at(-1), 3999);
    await send(page, patch(snap, { op: 'fill', index: 1, offset: cut(100), delta: whole.slice(cut(100), second) }));
    await settle(page);
    assert.deepEqual(await numbersShown(page), Array.from({ length: 4000 }, (_, i) => i));
    assert.equal(await page.locator('.entry.agent .flood').count(), 0);
  });
});
