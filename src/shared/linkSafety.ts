import * as l10n from '@vscode/l10n';
/**
 * What the user should know about a link an agent asks them to open (URL-mode elicitation, DIGEST §19) before
 * agreeing: its parts, with the host — where the browser really goes — set apart, and warnings for the tricks that
 * make a link look like another (punycode, mixed scripts, an IP address, a user name before the host) and for an
 * unencrypted or non-web link. Pure string work (no URL parser differs from another here): the page shows it, the
 * host checks `openable` again before opening.
 */

export interface LinkParts {
  /** Lower-cased, without `:`. */
  readonly scheme: string;
  /** What comes before `@` in the authority, if anything. */
  readonly userinfo?: string;
  readonly host: string;
  readonly port?: string;
  /** Path, query and fragment, as written. */
  readonly rest: string;
}

export interface LinkCheck {
  /** Undefined when the text is not an absolute `scheme://host…` link. */
  readonly parts?: LinkParts;
  /** Only http and https links are opened (a `command:`, `file:` or `javascript:` link never is). */
  readonly openable: boolean;
  readonly warnings: readonly string[];
}

const LINK = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([\s\S]*)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Scripts a host name is checked against for mixing (the ones homograph attacks borrow from). */
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Cherokee', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Arabic', 'Hebrew', 'Thai', 'Devanagari'];
const scriptRes = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')] as const);

export function splitLink(url: string): LinkParts | undefined {
  const m = LINK.exec(url);
  if (!m) return undefined;
  const authority = m[2];
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : undefined;
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  const port = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  const host = (port ? port[1] : hostPort).toLowerCase();
  return { scheme: m[1].toLowerCase(), ...(userinfo !== undefined ? { userinfo } : {}), host, ...(port?.[2] ? { port: port[2] } : {}), rest: m[3] };
}

/** The scripts the letters of `text` belong to, among those checked. */
function scriptsOf(text: string): string[] {
  return scriptRes.filter(([, re]) => re.test(text)).map(([name]) => name);
}

export function checkLink(url: string): LinkCheck {
  const parts = splitLink(url);
  if (!parts || parts.host === '') return { openable: false, warnings: [l10n.t('This is not a web link Howdah can open (it needs http:// or https:// and a host).')] };
  const warnings: string[] = [];
  const web = parts.scheme === 'https' || parts.scheme === 'http';
  if (!web) warnings.push(l10n.t('Howdah opens only web links; this one is {0}:, so it is not opened.', parts.scheme));
  else if (parts.scheme === 'http' && !LOCAL_HOSTS.has(parts.host)) warnings.push(l10n.t('Not encrypted (http, not https): anyone on the network can read or change what you send.'));
  if (parts.userinfo !== undefined) warnings.push(l10n.t('The link has “{0}@” before the host: the browser goes to {1}, not to “{2}”.', parts.userinfo, parts.host, parts.userinfo));
  if (IPV4.test(parts.host) || parts.host.startsWith('[')) {
    if (!LOCAL_HOSTS.has(parts.host)) warnings.push(l10n.t('The host is an IP address, not a name: check who it belongs to.'));
  }
  const labels = parts.host.split('.');
  if (labels.some((l) => l.startsWith('xn--'))) warnings.push(l10n.t('The host is an internationalised name in punycode (xn--…): it may be made to look like another name.'));
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(parts.host)) {
    const mixed = labels.some((l) => scriptsOf(l).length > 1);
    warnings.push(mixed ? l10n.t('The host mixes letters of different scripts (such as Latin and Cyrillic): it may imitate another name.') : l10n.t('The host has non-ASCII letters: check it is the name you expect.'));
  }
  if (/[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u.test(url)) warnings.push(l10n.t('The link holds spaces or hidden characters (shown marked).'));
  return { parts, openable: web, warnings };
}
