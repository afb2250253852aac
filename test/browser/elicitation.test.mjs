// Agents' questions (elicitation): the form used with the keyboard alone, its errors announced through the
// controls, hostile words inert, and a link card that shows where a link really goes.
import { strict as assert } from 'node:assert';
import { PAYLOADS } from './payloads.mjs';
import { chatHost, chatPagePerTest, posted, send } from './support/chatPage.mjs';
import { agent, field, patch, question, releaseForm, snapshot } from './support/fixtures.mjs';

const release = releaseForm;

describe('chat webview: elicitation', function () {
  const chat = chatPagePerTest();
  const focused = () => chat.page.evaluate(() => {
    const el = document.activeElement;
    const label = el?.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent?.trim() : undefined;
    return { tag: el?.tagName, name: label ?? el?.textContent?.trim() };
  });

  it('takes the focus when it appears; Tab walks the fields then Submit, Decline, Cancel; Enter submits only a valid form', async function () {
    const snap = snapshot({ entries: [agent(1, 'Deploying.')], turn: 'running' });
    await send(chat.page, snap);
    await chat.page.getByRole('textbox', { name: 'Prompt' }).focus();
    await send(chat.page, patch(snap, { op: 'entry', index: 1, entry: question(2, { form: release }) }));
    assert.deepEqual(await focused(), { tag: 'INPUT', name: 'Version *' });
    const order = [];
    for (let i = 0; i < 6; i++) {
      await chat.page.keyboard.press('Tab');
      order.push(await focused());
    }
    assert.deepEqual(order.map((f) => f.name), ['Replicas', 'Region', 'Canary first', 'Submit', 'Decline', 'Cancel']);

    // Enter in the empty required field: nothing is sent, the error is bound to the field and the focus stays there.
    await chat.page.getByLabel('Version').focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'elicitation'), []);
    const version = chat.page.getByLabel('Version');
    assert.equal(await version.getAttribute('aria-invalid'), 'true');
    const describedBy = (await version.getAttribute('aria-describedby')).split(' ');
    const texts = await chat.page.evaluate((ids) => ids.map((id) => document.getElementById(id)?.textContent), describedBy);
    assert.deepEqual(texts, ['A tag such as v1.2.3 (matching ^v\\d)', 'Required.']);
    assert.deepEqual(await focused(), { tag: 'INPUT', name: 'Version *' });

    await chat.page.keyboard.type('1.0');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'elicitation'), [], 'the pattern is not matched');
    assert.match(await chat.page.locator('.field-error:not([hidden])').first().textContent(), /pattern/);
    await chat.page.keyboard.press('Home');
    await chat.page.keyboard.type('v');
    assert.equal(await version.getAttribute('aria-invalid'), null, 'the error clears as the field becomes valid');
    await chat.page.keyboard.press('Tab');
    await chat.page.keyboard.press('Control+A');
    await chat.page.keyboard.type('3');
    await chat.page.keyboard.press('Tab');
    await chat.page.keyboard.press('ArrowDown'); // Europe → United States
    await chat.page.keyboard.press('Tab');
    await chat.page.keyboard.press('Space');
    await chat.page.keyboard.press('Shift+Tab');
    await chat.page.keyboard.press('Shift+Tab');
    await chat.page.keyboard.press('Shift+Tab');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await posted(chat.page, 'elicitation'), [{ type: 'elicitation', key: 2, action: 'accept', inputs: { version: 'v1.0', replicas: '3', region: 'us', canary: true } }]);
  });

  it('Escape anywhere in the form is Cancel; Decline answers decline', async function () {
    await send(chat.page, snapshot({ entries: [question(1, { form: release }), question(2, { form: release })] }));
    await chat.page.locator('.elicitation').nth(0).getByLabel('Replicas').focus();
    await chat.page.keyboard.press('Escape');
    await chat.page.locator('.elicitation').nth(1).getByRole('button', { name: 'Decline' }).click();
    assert.deepEqual((await posted(chat.page, 'elicitation')).map((m) => [m.key, m.action]), [[1, 'cancel'], [2, 'decline']]);
  });

  it('a secret-looking form warns and masks; an unknown field is read-only with its schema; a multi-select is a labelled group', async function () {
    const form = {
      fields: [
        field('apiToken', 'text', { label: 'API token', secret: true }),
        field('when', 'unknown', { type: 'time-range', raw: '{\n  "type": "time-range"\n}', required: true }),
        field('tags', 'multiselect', { label: 'Tags', options: [{ value: 'a', label: 'Alpha' }, { value: 'b', label: 'Beta' }], maxItems: 1 }),
      ],
      asksForSecret: true,
      omitted: 0,
    };
    await send(chat.page, snapshot({ entries: [question(1, { form })] }));
    assert.match(await chat.page.locator('.elicitation-warning').textContent(), /must not ask for secrets/);
    assert.equal(await chat.page.getByLabel('API token').getAttribute('type'), 'password');
    assert.match(await chat.page.locator('.field-unknown').textContent(), /cannot show a field of type “time-range”[\s\S]*"type": "time-range"/);
    assert.equal(await chat.page.locator('.field-unknown input, .field-unknown select').count(), 0);
    assert.equal(await chat.page.getByRole('group', { name: 'Tags' }).count(), 1);
    await chat.page.getByLabel('Alpha').check();
    await chat.page.getByLabel('Beta').check();
    await chat.page.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(await posted(chat.page, 'elicitation'), [], 'two of at most one');
    assert.match(await chat.page.locator('.field-multiselect .field-error').textContent(), /at most 1/);
    await chat.page.getByLabel('Beta').uncheck();
    await chat.page.getByLabel('API token').fill('x');
    await chat.page.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual((await posted(chat.page, 'elicitation'))[0].inputs, { apiToken: 'x', tags: ['a'] }, 'the unknown field does not block the answer');
  });

  it('an answered card shows what was sent; a cancelled one says who ended it', async function () {
    await send(chat.page, snapshot({
      entries: [
        question(1, { form: release, status: 'accepted', answered: [{ label: 'Version', value: 'v2' }, { label: 'Token', value: '(hidden: looks like a secret)' }] }),
        question(2, { form: release, status: 'cancelled', endedBy: 'turn' }),
      ],
    }));
    const cards = chat.page.locator('.elicitation');
    assert.match(await cards.nth(0).textContent(), /You submitted:.*Version.*v2.*Token.*hidden/);
    assert.equal(await cards.nth(0).locator('input, button').count(), 0, 'nothing left to answer');
    assert.match(await cards.nth(1).textContent(), /the turn was stopped/);
  });

  it('a link card shows the whole link with its host set apart, warns of a punycode host and opens only on Open', async function () {
    const url = 'https://user@xn--pple-43d.com/login?next=%2F';
    await send(chat.page, snapshot({ entries: [question(1, { mode: 'url', url, message: 'Sign in to continue' }), question(2, { mode: 'url', url: 'javascript:alert(1)', message: 'x' })] }));
    const card = chat.page.locator('.elicitation').nth(0);
    assert.equal(await card.locator('.elicitation-url').textContent(), url);
    assert.equal(await card.locator('.elicitation-url .url-host').textContent(), 'xn--pple-43d.com');
    const warnings = await card.locator('.elicitation-warning li').allTextContents();
    assert.ok(warnings.some((w) => /punycode/.test(w)) && warnings.some((w) => /user@/.test(w)), warnings.join(' | '));
    assert.equal(await chat.page.locator('.transcript a[href]').count(), 0, 'the link is not clickable');
    assert.equal(chat.requests.filter((r) => r.includes('xn--')).length, 0, 'never fetched');
    await card.getByRole('button', { name: 'Open' }).click();
    assert.deepEqual(await posted(chat.page, 'elicitation'), [{ type: 'elicitation', key: 1, action: 'accept' }]);
    assert.equal(await chat.page.locator('.elicitation').nth(1).getByRole('button', { name: 'Open' }).isDisabled(), true, 'a javascript: link cannot be opened');
  });
});

describe('chat webview: the start area asks and waits', function () {
  const chat = chatPagePerTest();

  it('a question asked during session/new is a form in the start area; what is typed survives the gate being sent again', async function () {
    await send(chat.page, snapshot({ head: { status: 'starting' } }));
    const gate = { type: 'gate', gate: { kind: 'elicitation', agentName: 'Fake', elicitation: { key: 9, mode: 'form', message: 'Which profile?', status: 'waiting', form: release } } };
    await send(chat.page, gate);
    const area = chat.page.locator('.gate');
    assert.match(await area.locator('.gate-title').textContent(), /Fake asks you/);
    await area.getByLabel('Version').fill('v9.9.9');
    await send(chat.page, gate);
    assert.equal(await area.getByLabel('Version').inputValue(), 'v9.9.9');
    await area.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual((await posted(chat.page, 'elicitation'))[0], { type: 'elicitation', key: 9, action: 'accept', inputs: { version: 'v9.9.9', replicas: '2', region: 'eu', canary: false } });
  });

  it('a start call that does not answer shows Cancel, which names the call it cancels', async function () {
    await send(chat.page, snapshot({ head: { status: 'starting' } }), { type: 'gate', gate: { kind: 'startWaiting', id: 'w7', agentName: 'Fake', step: 'session/new', message: 'Fake has not answered session/new for 5 seconds.' } });
    await chat.page.locator('.gate').getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await posted(chat.page, 'cancelStart'), [{ type: 'cancelStart', id: 'w7' }]);
  });
});

describe('chat webview: hostile words in an elicitation', function () {
  let chat;
  before(async function () {
    chat = await (await chatHost()).open();
  });
  after(async function () {
    await chat?.close();
  });

  PAYLOADS.forEach((p, i) => {
    it(`payload ${i + 1} in message, titles, descriptions, options and the link`, async function () {
      const form = {
        title: p,
        description: p,
        fields: [
          field(p, 'text', { label: p, description: p, pattern: p, default: p }),
          field('n', 'number', { label: p, description: p }),
          field('s', 'select', { label: p, options: [{ value: p, label: p, description: p }] }),
          field('m', 'multiselect', { label: p, options: [{ value: p, label: p, description: p }] }),
          field('u', 'unknown', { label: p, type: p, raw: p }),
        ],
        asksForSecret: true,
        omitted: 0,
      };
      await send(chat.page, snapshot({ entries: [question(1, { message: p, form, toolTitle: p }), question(2, { mode: 'url', message: p, url: p }), question(3, { message: p, form, status: 'accepted', answered: [{ label: p, value: p }] })] }));
      await chat.page.locator('.elicitation').first().getByRole('button', { name: 'Submit' }).click();
      const report = await chat.page.evaluate(() => {
        const zone = document.querySelector('.transcript');
        const all = [...zone.querySelectorAll('*')];
        const raw = [];
        const walker = document.createTreeWalker(zone, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (/[\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000B-\u001F\u007F-\u009F]/.test(n.nodeValue)) raw.push(n.nodeValue.slice(0, 40));
        }
        return {
          pwned: window.__pwned,
          handlers: all.filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
          // Our own form is the only form; nothing else that content must never create.
          forbidden: all.filter((el) => el.matches('script, iframe, object, embed, svg, math, style, link, meta, base, frame, template, img, a[href], form:not(.elicitation-form)')).map((el) => el.tagName),
          styled: all.filter((el) => el.hasAttribute('style')).length,
          raw,
          violations: window.__cspViolations.slice(),
          url: location.pathname,
        };
      });
      assert.equal(report.pwned, undefined);
      assert.equal(report.handlers, 0);
      assert.deepEqual(report.forbidden, []);
      assert.equal(report.styled, 0);
      assert.deepEqual(report.raw, []);
      assert.deepEqual(report.violations, []);
      assert.equal(report.url, '/chat.html');
      assert.deepEqual(chat.errors, []);
    });
  });
});
