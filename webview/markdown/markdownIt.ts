import MarkdownIt from 'markdown-it';
import { BIDI_RE, INVISIBLE_RE, codePointLabel } from '../../src/shared/textSafety';
import * as l10n from '@vscode/l10n';

/**
 * The one Markdown renderer for agent text. Raw HTML is off, so every tag in the output comes from markdown-it's own
 * rules or ours below; attribute values are escaped by them. On top of that:
 * - links only with http, https, mailto, file and vscode schemes or a relative path (others stay plain text); the
 *   full target is the link's title, and clicks are handled by the page (the host opens them, see linkOpener.ts);
 * - images only from `data:image/(png|gif|jpeg|webp)`; any other image becomes its alt text and address as text;
 * - code blocks get a header with the language and a Copy button; hidden characters in code are shown as ⟨U+…⟩,
 *   and bidi controls are shown in prose too;
 * - table alignment becomes a class, since the CSP forbids style attributes.
 */

const LINK_SCHEMES = new Set(['http', 'https', 'mailto', 'file', 'vscode', 'vscode-insiders']);
const DATA_IMAGE_RE = /^data:image\/(gif|png|jpeg|webp);/;

export type Markdown = InstanceType<typeof MarkdownIt>;

export function createMarkdown(): Markdown {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  const escape = md.utils.escapeHtml;

  md.validateLink = (url: string) => {
    const s = url.trim().toLowerCase();
    const scheme = /^([a-z][a-z0-9+.-]*):/.exec(s)?.[1];
    if (scheme === undefined) return !s.startsWith('//');
    if (scheme.length === 1) return true; // a Windows drive letter
    if (scheme === 'data') return DATA_IMAGE_RE.test(s);
    return LINK_SCHEMES.has(scheme);
  };

  md.core.ruler.push('howdah_safety', (state) => {
    for (const block of state.tokens) {
      if (block.type === 'th_open' || block.type === 'td_open') {
        const align = /text-align:(left|right|center)/.exec(String(block.attrGet('style') ?? ''))?.[1];
        if (align) {
          block.attrs = (block.attrs ?? []).filter(([name]) => name !== 'style');
          block.attrJoin('class', `align-${align}`);
        }
      }
      if (!block.children) continue;
      const openLinks: boolean[] = [];
      const children = block.children;
      for (let i = 0; i < children.length; i++) {
        const token = children[i];
        if (token.type === 'link_open') {
          const href = String(token.attrGet('href') ?? '');
          // A data: URI is fine as an image, never as a link target.
          const keep = !href.toLowerCase().startsWith('data:');
          openLinks.push(keep);
          if (!keep) {
            token.tag = 'span';
            token.attrs = null;
          } else {
            token.attrSet('title', href);
            token.attrJoin('class', 'md-link');
          }
        } else if (token.type === 'link_close') {
          if (openLinks.pop() === false) token.tag = 'span';
        } else if (token.type === 'image') {
          const src = String(token.attrGet('src') ?? '');
          if (!DATA_IMAGE_RE.test(src.toLowerCase())) {
            const text = new state.Token('text', '', 0);
            text.content = `[image: ${token.content || 'no description'}${src ? ` — ${src}` : ''}]`;
            children[i] = text;
          }
        }
      }
    }
  });

  md.renderer.rules.text = (tokens, idx) => revealHtml(escape(tokens[idx].content), BIDI_RE);
  md.renderer.rules.code_inline = (tokens, idx) => `<code>${revealHtml(escape(tokens[idx].content), INVISIBLE_RE)}</code>`;
  const codeBlock = (content: string, info: string) => {
    const language = info.trim().split(/\s+/)[0] ?? '';
    const label = language ? `<span class="code-lang">${escape(language)}</span>` : '<span class="code-lang"></span>';
    return (
      `<div class="code-block"><div class="code-header">${label}` +
      `<button type="button" class="code-copy" data-action="copy-code" aria-label="${escape(l10n.t('Copy code'))}" title="${escape(l10n.t('Copy code'))}">` +
      `<span class="codicon codicon-copy" aria-hidden="true"></span></button></div>` +
      `<pre><code>${revealHtml(escape(content), INVISIBLE_RE)}</code></pre></div>\n`
    );
  };
  md.renderer.rules.fence = (tokens, idx) => codeBlock(tokens[idx].content, tokens[idx].info);
  md.renderer.rules.code_block = (tokens, idx) => codeBlock(tokens[idx].content, '');
  return md;
}

/** A translated title inside the HTML built here: it is text, whatever a translation holds. */
const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Replaces hidden characters in already-escaped HTML with visible, marked labels. */
export function revealHtml(html: string, re: RegExp): string {
  re.lastIndex = 0;
  if (!re.test(html)) return html;
  re.lastIndex = 0;
  return html.replace(re, (ch) => {
    const label = codePointLabel(ch);
    const cp = (ch.codePointAt(0) ?? 0).toString(16);
    return `<span class="invisible-char" data-cp="${cp}" title="${escapeAttribute(l10n.t('Hidden character {0}', label))}">⟨${label}⟩</span>`;
  });
}
