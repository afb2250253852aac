// Issue 19: a native look. The webview's styles use VS Code's theme variables and nothing else for colour: no
// literal colour in the CSS outside a `var(--vscode-…, fallback)`, none set from the webview's code, every colour the
// browser computes for every element in every state is one the theme gave (or transparent), and switching theme
// changes what is drawn.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatHost, REPO } from './support/chatPage.mjs';
import { STATES } from './support/states.mjs';
import { applyTheme, THEMES, themeVariables } from './support/themes.mjs';

const COLOUR_WORDS = /\b(?:aliceblue|antiquewhite|aqua|aquamarine|azure|beige|bisque|black|blanchedalmond|blue|blueviolet|brown|burlywood|cadetblue|chartreuse|chocolate|coral|cornflowerblue|cornsilk|crimson|cyan|darkblue|darkcyan|darkgray|darkgreen|darkgrey|darkred|deeppink|dimgray|gold|gray|green|greenyellow|grey|hotpink|indigo|ivory|khaki|lavender|lightblue|lightgray|lightgreen|lightgrey|lime|magenta|maroon|navy|olive|orange|orchid|pink|plum|purple|red|salmon|silver|tan|teal|tomato|turquoise|violet|wheat|white|whitesmoke|yellow|yellowgreen)\b/i;
const COLOUR_LITERAL = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/i;

/** `text` with every `var(...)` taken out (nested ones too), so what is left is written outside any variable. */
function outsideVars(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('var(', i)) {
      let depth = 0;
      for (; i < text.length; i++) {
        if (text[i] === '(') depth++;
        else if (text[i] === ')' && --depth === 0) break;
      }
      out += ' var ';
    } else out += text[i];
  }
  return out;
}

/** Declarations of a stylesheet as [selector-ish context, property, value], comments dropped. */
function declarations(css) {
  const out = [];
  const body = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const block of body.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    for (const decl of block[2].split(';')) {
      const at = decl.indexOf(':');
      if (at > 0) out.push([block[1].trim(), decl.slice(0, at).trim(), decl.slice(at + 1).trim()]);
    }
  }
  return out;
}

describe('chat webview: theme colours only', function () {
  this.timeout(120_000);

  it('declares no colour outside a var(--vscode-…) fallback in media/*.css', function () {
    const files = readdirSync(join(REPO, 'media')).filter((f) => f.endsWith('.css'));
    assert.ok(files.includes('chat.css'));
    const found = [];
    for (const file of files) {
      for (const [where, property, value] of declarations(readFileSync(join(REPO, 'media', file), 'utf8'))) {
        const rest = outsideVars(value);
        if (COLOUR_LITERAL.test(rest) || COLOUR_WORDS.test(rest)) found.push(`${file}: ${where} { ${property}: ${value} }`);
      }
      // Every variable is one of VS Code's (a typo would silently fall back to the browser's colours).
      for (const m of readFileSync(join(REPO, 'media', file), 'utf8').matchAll(/var\((--[\w-]+)/g)) {
        if (!m[1].startsWith('--vscode-')) found.push(`${file}: var(${m[1]}) is not a VS Code theme variable`);
      }
    }
    assert.deepEqual(found, []);
  });

  it('sets no colour from the webview’s code', function () {
    const found = [];
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
            if (/\.style\.(?:color|background|backgroundColor|borderColor|outlineColor|fill|stroke)\b|setProperty\(\s*['"](?:color|background)/.test(line) || (/style/.test(line) && COLOUR_LITERAL.test(line))) found.push(`${path.slice(REPO.length)}:${i + 1}: ${line.trim()}`);
          });
        }
      }
    };
    walk(join(REPO, 'webview'));
    assert.deepEqual(found, []);
  });

  it('computes only the theme’s colours for every element, in every state and theme', async function () {
    const chat = await (await chatHost()).open();
    const found = new Set();
    try {
      for (const [state, enter] of Object.entries(STATES)) {
        await chat.page.reload();
        await chat.page.waitForFunction(() => window.__posted?.some((m) => m.type === 'ready'));
        await enter(chat.page);
        for (const theme of THEMES) {
          await applyTheme(chat.page, theme);
          const strays = await chat.page.evaluate((variables) => {
            // What each variable's value computes to, as the browser writes colours.
            const probe = document.createElement('div');
            document.body.append(probe);
            const allowed = new Set(['rgba(0, 0, 0, 0)']);
            for (const [, value] of variables) {
              probe.style.color = '';
              probe.style.color = value;
              if (probe.style.color) allowed.add(getComputedStyle(probe).color);
            }
            probe.remove();
            const props = ['color', 'background-color', 'border-top-color', 'border-right-color', 'border-bottom-color', 'border-left-color', 'outline-color', 'text-decoration-color', 'caret-color', 'column-rule-color'];
            const out = [];
            for (const el of document.querySelectorAll('body, body *')) {
              if (el.closest('[hidden]') || el.getClientRects().length === 0) continue;
              const style = getComputedStyle(el);
              for (const prop of props) {
                const value = style.getPropertyValue(prop);
                // A border or outline that is not drawn has no colour to see.
                if (prop.startsWith('border-') && style.getPropertyValue(prop.replace('color', 'style')) === 'none') continue;
                if (prop === 'outline-color' && style.outlineStyle === 'none') continue;
                if (prop === 'column-rule-color' && style.columnRuleStyle === 'none') continue;
                if (!allowed.has(value)) out.push(`${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} ${prop}: ${value}`);
              }
            }
            return out;
          }, themeVariables(theme));
          for (const s of strays) found.add(`${theme.name}, ${state}: ${s}`);
        }
      }
      assert.deepEqual([...found], []);
    } finally {
      await chat.close();
    }
  });

  it('draws buttons, inputs, links, code and the focus ring in each theme’s own colours', async function () {
    const chat = await (await chatHost()).open();
    try {
      await STATES['every entry kind'](chat.page);
      const seen = [];
      for (const theme of THEMES) {
        await applyTheme(chat.page, theme);
        const vars = Object.fromEntries(themeVariables(theme));
        const drawn = await chat.page.evaluate((v) => {
          const computed = (value) => {
            const probe = document.createElement('div');
            document.body.append(probe);
            probe.style.color = value;
            const c = getComputedStyle(probe).color;
            probe.remove();
            return c;
          };
          const style = (selector) => getComputedStyle(document.querySelector(selector));
          document.querySelector('textarea').focus();
          return {
            body: [style('body').backgroundColor, computed(v['--vscode-sideBar-background'])],
            text: [style('body').color, computed(v['--vscode-foreground'])],
            button: [style('button.send').backgroundColor, computed(v['--vscode-button-background'])],
            input: [style('textarea').backgroundColor, computed(v['--vscode-input-background'])],
            link: [style('.entry.agent a').color, computed(v['--vscode-textLink-foreground'])],
            focus: [style('textarea').outlineColor, computed(v['--vscode-focusBorder'])],
          };
        }, vars);
        for (const [what, [actual, expected]] of Object.entries(drawn)) assert.equal(actual, expected, `${theme.name}: ${what}`);
        seen.push(drawn.body[0] + drawn.text[0] + drawn.button[0]);
      }
      assert.equal(new Set(seen).size, THEMES.length, 'each theme draws the panel differently');
    } finally {
      await chat.close();
    }
  });
});
