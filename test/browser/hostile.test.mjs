// Hostile payloads in every place agent text reaches the page: nothing runs, nothing becomes markup or a link it
// should not, nothing loads from elsewhere, hidden characters are shown and terminal escapes are stripped.
import { strict as assert } from 'node:assert';
import { PAYLOADS } from './payloads.mjs';
import { chatHost, send } from './support/chatPage.mjs';
import { agent, error, notice, patch, snapshot, thought, tool, turnEnd, unknown, user } from './support/fixtures.mjs';

const ALLOWED_LINK = /^(https?:|mailto:|file:|vscode:|vscode-insiders:|[a-z]:|(?![a-z][a-z0-9+.-]*:)(?!\/\/))/i;
const ALLOWED_IMG = /^data:image\/(png|gif|jpeg|webp|bmp);base64,/;

function everywhere(p) {
  return snapshot({
    turn: 'running',
    head: {
      agentName: p, title: p, sessions: [{ key: 's1', label: p }, { key: 's2', label: p }],
      configOptions: [{ type: 'select', id: 'c', name: p, description: p, current: 'v', groups: [{ name: p, options: [{ value: 'v', name: p, description: p }] }] }],
      modes: { current: 'm', options: [{ value: 'm', name: p }] },
      usage: { used: 1, size: 2, cost: { amount: 1, currency: p } },
    },
    plan: [{ content: p, priority: p, status: p }],
    commands: [{ name: p, description: p, hint: p }],
    entries: [
      user(1, p, [{ type: 'resource_link', uri: p, name: p }, { type: 'image', mimeType: `image/png" onerror="x`, data: p }, { type: 'resource', uri: p, text: p }]),
      agent(2, '', [{ type: 'unknown', label: p, raw: p }, { type: 'audio', mimeType: p }]),
      thought(3, p),
      tool(4, {
        title: p, kind: p, status: p, command: p, rawInput: p, rawOutput: p,
        locations: [{ path: p, line: 1 }],
        content: [
          { type: 'content', content: { type: 'text', text: p } },
          { type: 'diff', path: p, added: 1, removed: 1, newFile: false },
          { type: 'terminal', terminalId: p, output: p, truncated: true, exit: { code: 1, signal: p } },
          { type: 'unknown', raw: p },
        ],
        permission: { requestId: 1, options: [{ optionId: 'o1', name: p, kind: 'allow_once' }, { optionId: 'o2', name: p, kind: p }] },
        answer: { name: p, kind: p },
      }),
      notice(5, p, p, p),
      error(6, p, true, p),
      unknown(7, p, p),
      turnEnd(8, p),
      agent(9, p),
    ],
  });
}

describe('chat webview: hostile content', function () {
  let chat;
  before(async function () {
    chat = await (await chatHost()).open();
  });
  after(async function () {
    await chat?.close();
  });

  it(`has a corpus of at least 50 payloads (${PAYLOADS.length})`, function () {
    assert.ok(PAYLOADS.length >= 50);
  });

  PAYLOADS.forEach((p, i) => {
    const name = JSON.stringify(p).slice(0, 70);
    it(`payload ${i + 1}: ${name}`, async function () {
      const snap = everywhere(p);
      await send(chat.page, snap);
      // The same text again, streamed in three chunks onto a message.
      const third = Math.ceil(p.length / 3);
      await send(chat.page,
        patch(snap, { op: 'entry', index: 9, entry: agent(10, '') }),
        patch(snap, { op: 'append', index: 9, offset: 0, delta: p.slice(0, third) }),
        patch(snap, { op: 'append', index: 9, offset: third, delta: p.slice(third, 2 * third) }),
        patch(snap, { op: 'append', index: 9, offset: Math.min(p.length, 2 * third), delta: p.slice(2 * third) }),
      );
      // Open everything that renders lazily, and click every link and location.
      await chat.page.evaluate(() => {
        for (const d of document.querySelectorAll('details')) d.open = true;
      });
      await chat.page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
      await chat.page.evaluate(() => {
        for (const a of document.querySelectorAll('.transcript a, .transcript .link-button')) a.click();
      });
      const report = await chat.page.evaluate(() => {
        const zones = [...document.querySelectorAll('.chat-header, .transcript, .plan, .composer')];
        const inZones = (selector) => zones.flatMap((z) => [...z.querySelectorAll(selector)]);
        const all = [...document.body.querySelectorAll('*')];
        return {
          pwned: window.__pwned,
          handlers: all.filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).map((el) => el.outerHTML.slice(0, 120)),
          // The l10n bundle is a data block (type application/json), which never runs.
          scripts: [...document.scripts].filter((s) => s.type !== 'application/json').length,
          dataBlocks: [...document.scripts].filter((s) => s.type === 'application/json').map((s) => s.id),
          forbidden: inZones('script, iframe, object, embed, svg, math, style, link, meta, base, form, frame, frameset, template, noscript, video, audio, source, x')
            .map((el) => el.tagName),
          styled: all.filter((el) => el.hasAttribute('style') && !el.matches('.context-meter-bar, .prompt-input')).map((el) => el.outerHTML.slice(0, 120)),
          links: inZones('a[href]').map((a) => a.getAttribute('href')),
          images: inZones('img').map((img) => img.getAttribute('src')),
          violations: window.__cspViolations.slice(),
          url: location.pathname,
          escapes: inZones('.terminal-output').map((el) => el.textContent).filter((t) => /[\u001b\u009b\u0007]/.test(t)),
          revealedTitle: document.querySelector('.tool-title')?.textContent ?? '',
          // Reordering and control characters never reach the screen raw (they are shown as ⟨U+…⟩ labels).
          rawControls: zones.flatMap((z) => {
            const found = [];
            const walker = document.createTreeWalker(z, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              if (n.parentElement?.closest('textarea')) continue;
              if (/[\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000B-\u001F\u007F-\u009F]/.test(n.nodeValue)) found.push(`${n.parentElement?.className}: ${JSON.stringify(n.nodeValue.slice(0, 40))}`);
            }
            return found;
          }),
        };
      });
      assert.equal(report.pwned, undefined, 'a payload ran');
      assert.deepEqual(report.handlers, [], 'event handler attributes');
      assert.equal(report.scripts, 2, 'only the fake host and the bundle are scripts');
      assert.deepEqual(report.dataBlocks, ['howdah-l10n'], 'the one data block is the l10n bundle the host wrote');
      assert.deepEqual(report.forbidden, [], 'elements content must never create');
      assert.deepEqual(report.styled, [], 'style attributes');
      for (const href of report.links) assert.match(href, ALLOWED_LINK, `link ${href}`);
      for (const src of report.images) assert.match(src, ALLOWED_IMG, `image ${src.slice(0, 60)}`);
      assert.deepEqual(report.violations, [], 'CSP violations');
      assert.equal(report.url, '/chat.html', 'the page navigated');
      assert.deepEqual(report.escapes, [], 'terminal escapes shown');
      assert.deepEqual(report.rawControls, [], 'raw reordering or control characters on screen');
      const hidden = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF]|[\u{E0000}-\u{E007F}]/u;
      if (hidden.test(p)) {
        assert.match(report.revealedTitle, /⟨U\+[0-9A-F]{4,5}⟩/, 'hidden characters are shown');
        assert.doesNotMatch(report.revealedTitle, hidden, 'no hidden character left in the title');
      }
      assert.deepEqual(chat.errors, [], 'page errors');
      const foreign = chat.requests.filter((u) => !u.startsWith((new URL(chat.page.url())).origin) && !u.startsWith('data:'));
      assert.deepEqual(foreign, [], 'requests to other origins');
    });
  });
});
