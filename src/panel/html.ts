import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { L10N_ELEMENT_ID } from '../shared/pageLocalization';

/**
 * The chat webview's page: a strict CSP (nothing but our nonce'd bundle runs, styles and fonts only from the
 * extension, images only from the extension or `data:`), our stylesheet, the codicon font and an empty body the
 * bundle fills. Pure: the URIs come from the caller (`asWebviewUri`), so tests can build the same page.
 */

export interface PageResources {
  readonly cspSource: string;
  readonly script: string;
  readonly styles: readonly string[];
  /** The page's language and its translations (none: English), read by the page before it builds anything. */
  readonly localization?: { readonly language: string; readonly bundle: Readonly<Record<string, string>> | undefined };
}


export function newNonce(): string {
  return randomBytes(18).toString('base64').replace(/[+/=]/g, '');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    // Audio content plays from a data: URI the webview builds (audio/* only); nothing else may be loaded as media.
    'media-src data:',
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function chatPageHtml(resources: PageResources, nonce: string = newNonce()): string {
  const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const links = resources.styles.map((href) => `<link rel="stylesheet" href="${attr(href)}">`).join('\n    ');
  const language = resources.localization?.language ?? 'en';
  // `<` escaped so no translation can close the element; the page parses this once, as JSON.
  const bundle = JSON.stringify(resources.localization?.bundle ?? {}).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="${attr(language)}">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(resources.cspSource, nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${links}
    <title>${attr(l10n.t('Howdah Chat'))}</title>
  </head>
  <body>
    <noscript>${attr(l10n.t('The chat needs scripts enabled.'))}</noscript>
    <script type="application/json" id="${L10N_ELEMENT_ID}">${bundle}</script>
    <script nonce="${attr(nonce)}" src="${attr(resources.script)}"></script>
  </body>
</html>`;
}
