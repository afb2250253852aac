import type { ContentView, LocationView, WebviewMessage } from '../../src/shared/protocol';
import { audioDataUri, h, icon, imageDataUri, prose, revealed } from '../dom';
import { renderMarkdown } from '../markdown/streamingMarkdown';
import { pathTitle, shownPath } from '../paths';
import * as l10n from '@vscode/l10n';

/** Posts an intent to the host. */
export type Post = (message: WebviewMessage) => void;

/** A content block (in a message, a tool call or an attachment list). */
export function contentBlock(content: ContentView, post: Post): HTMLElement {
  switch (content.type) {
    case 'text':
      return h('div', { class: 'md' }, renderMarkdown(content.text));
    case 'image': {
      const src = imageDataUri(content.mimeType, content.data);
      if (!src) return h('span', { class: 'chip' }, icon('file-media'), ' ', prose(`image (${content.mimeType})`));
      const img = h('img', { class: 'content-image', alt: l10n.t('Image ({0})', content.mimeType) });
      img.src = src;
      return img;
    }
    case 'audio': {
      const src = audioDataUri(content.mimeType, content.data);
      if (!src) return h('span', { class: 'chip' }, icon('unmute'), ' ', prose(`audio (${content.mimeType})`));
      const audio = h('audio', { class: 'content-audio', controls: '', 'aria-label': l10n.t('Audio ({0})', content.mimeType) });
      audio.src = src;
      return audio;
    }
    case 'resource_link':
      return linkButton(content.title || content.name, content.uri, 'link', () => post({ type: 'openLink', href: content.uri }));
    case 'resource': {
      const name = content.uri.split(/[\\/]/).pop() || content.uri;
      const details = h('details', { class: 'resource' }, h('summary', { title: content.uri }, icon('file'), ' ', revealed(name)));
      if (content.text !== undefined) lazyBody(details, () => h('pre', { class: 'resource-text' }, revealed(content.text ?? '')));
      return details;
    }
    case 'unknown':
      return rawDetails(l10n.t('Unrecognised content ({0})', content.label), content.raw);
  }
}

/**
 * A path the user can open, relative to its workspace folder when inside one; the full path is the tooltip and, with
 * `showFull`, also shown beside it in smaller text. Hidden characters are shown in both.
 */
export function locationLink(location: LocationView, post: Post, showFull = false): HTMLElement {
  const shown = shownPath(location.path, location.line);
  const link = linkButton(shown.text, shown.full, 'go-to-file', () => post({ type: 'openLocation', path: location.path, line: location.line }));
  return showFull && shown.relative ? h('span', { class: 'path-with-full' }, link, fullPath(shown.full)) : link;
}

/** A full path in small print, under its shorter form. */
export function fullPath(path: string): HTMLElement {
  return h('span', { class: 'full-path' }, revealed(path));
}

function linkButton(text: string, target: string, iconName: string, onClick: () => void): HTMLElement {
  const button = h('button', { type: 'button', class: 'link-button', title: pathTitle(target) }, icon(iconName), h('span', { class: 'link-text' }, revealed(text)));
  button.addEventListener('click', onClick);
  return button;
}

/** Raw JSON on demand: rendered only when opened, so a long transcript does not carry it in the DOM. */
export function rawDetails(label: string, raw: string): HTMLDetailsElement {
  const details = h('details', { class: 'raw' }, h('summary', {}, prose(label)));
  lazyBody(details, () => h('pre', { class: 'raw-json' }, revealed(raw)));
  return details;
}

export function lazyBody(details: HTMLDetailsElement, build: () => Node): void {
  let built = false;
  details.addEventListener('toggle', () => {
    if (details.open && !built) {
      built = true;
      details.append(build());
    }
  });
}
