/**
 * Bytes ↔ text as VS Code would do it: a byte-order mark wins, otherwise the `files.encoding` setting. The format
 * (encoding and BOM) is kept with the text so a region edit or a restore writes the same kind of bytes back; line
 * endings live in the text itself. Plain Node: no `vscode`.
 */

export interface FileFormat {
  /** A VS Code encoding id: `utf8`, `utf16le`, `windows1252`, … (`utf8bom` is `utf8` with `bom: true`). */
  encoding: string;
  bom: boolean;
}

export const DEFAULT_FORMAT: FileFormat = { encoding: 'utf8', bom: false };

/** VS Code encoding ids → WHATWG labels for the ones whose names differ by more than punctuation. */
const WHATWG: Record<string, string> = {
  utf8: 'utf-8',
  utf8bom: 'utf-8',
  utf16le: 'utf-16le',
  utf16be: 'utf-16be',
  macroman: 'macintosh',
  cp866: 'ibm866',
  koi8r: 'koi8-r',
  koi8u: 'koi8-u',
  koi8ru: 'koi8-u',
  shiftjis: 'shift_jis',
  eucjp: 'euc-jp',
  euckr: 'euc-kr',
  big5hkscs: 'big5',
  gbk: 'gbk',
  gb18030: 'gb18030',
  gb2312: 'gbk',
};

function whatwgLabel(encoding: string): string | undefined {
  const known = WHATWG[encoding];
  if (known) return known;
  let m = /^windows(\d{3,4})$/.exec(encoding);
  if (m) return `windows-${m[1]}`;
  m = /^iso8859(\d{1,2})$/.exec(encoding);
  if (m) return `iso-8859-${m[1]}`;
  return undefined;
}

/** True if the encoding can be read here (so an unknown setting falls back to UTF-8 rather than garbling). */
export function canDecode(encoding: string): boolean {
  const label = whatwgLabel(encoding);
  if (!label) return false;
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** The format a byte-order mark announces, with its length. */
export function detectBom(bytes: Uint8Array): { format: FileFormat; length: number } | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { format: { encoding: 'utf8', bom: true }, length: 3 };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { format: { encoding: 'utf16le', bom: true }, length: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { format: { encoding: 'utf16be', bom: true }, length: 2 };
  return undefined;
}

/** What VS Code calls binary: a NUL byte early on, unless the file is UTF-16 (where NULs are normal). */
export function looksBinary(bytes: Uint8Array, configured = 'utf8'): boolean {
  const bom = detectBom(bytes);
  if (bom?.format.encoding.startsWith('utf16') || configured.startsWith('utf16')) return false;
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Decodes as VS Code would: BOM first, else the configured encoding (UTF-8 when it is unknown here). */
export function decodeText(bytes: Uint8Array, configured = 'utf8'): { text: string; format: FileFormat } {
  const bom = detectBom(bytes);
  if (bom) {
    const label = whatwgLabel(bom.format.encoding)!;
    return { text: new TextDecoder(label, { ignoreBOM: true }).decode(bytes.subarray(bom.length)), format: bom.format };
  }
  const encoding = configured === 'utf8bom' || !canDecode(configured) ? 'utf8' : configured;
  if (encoding === 'iso88591') return { text: Buffer.from(bytes).toString('latin1'), format: { encoding, bom: false } };
  return { text: new TextDecoder(whatwgLabel(encoding)!, { ignoreBOM: true }).decode(bytes), format: { encoding, bom: false } };
}

/** Thrown for encodings that can be read but not written here (multi-byte legacy ones); callers let VS Code write. */
export class UnsupportedEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`Writing ${encoding} is not supported here`);
  }
}

const singleByteTables = new Map<string, Map<string, number>>();

/** Encodes text in a format. Round-trips `decodeText` exactly for UTF-8/16 and single-byte encodings. */
export function encodeText(text: string, format: FileFormat): Uint8Array {
  const body = encodeBody(text, format.encoding);
  if (!format.bom) return body;
  const bom = format.encoding === 'utf16le' ? [0xff, 0xfe] : format.encoding === 'utf16be' ? [0xfe, 0xff] : [0xef, 0xbb, 0xbf];
  const out = new Uint8Array(bom.length + body.length);
  out.set(bom, 0);
  out.set(body, bom.length);
  return out;
}

function encodeBody(text: string, encoding: string): Uint8Array {
  switch (encoding) {
    case 'utf8':
    case 'utf8bom':
      return new TextEncoder().encode(text);
    case 'utf16le':
      return Buffer.from(text, 'utf16le');
    case 'utf16be':
      return Buffer.from(text, 'utf16le').swap16();
    case 'iso88591':
      return Buffer.from(text, 'latin1');
  }
  const table = singleByteTable(encoding);
  if (!table) throw new UnsupportedEncodingError(encoding);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const byte = table.get(text[i]);
    // A character the encoding cannot hold: VS Code writes '?' as well.
    out[i] = byte ?? 0x3f;
  }
  return out;
}

/** For a single-byte encoding, char → byte, built by decoding all 256 bytes; undefined for multi-byte ones. */
function singleByteTable(encoding: string): Map<string, number> | undefined {
  const cached = singleByteTables.get(encoding);
  if (cached) return cached;
  const label = whatwgLabel(encoding);
  if (!label || ['shift_jis', 'euc-jp', 'euc-kr', 'big5', 'gbk', 'gb18030'].includes(label) || !canDecode(encoding)) return undefined;
  const all = new Uint8Array(256).map((_, i) => i);
  const chars = new TextDecoder(label).decode(all);
  if (chars.length !== 256) return undefined;
  const table = new Map<string, number>();
  for (let i = 255; i >= 0; i--) table.set(chars[i], i);
  singleByteTables.set(encoding, table);
  return table;
}

/** The line ending a text uses throughout, or undefined when it has none or mixes them. */
export function uniformEol(text: string): '\n' | '\r\n' | undefined {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length;
  if (lf === 0) return undefined;
  if (crlf === lf) return '\r\n';
  if (crlf === 0) return '\n';
  return undefined;
}

/**
 * The agent's text with the line endings of the file it replaces, as the editor does when it applies an edit: an
 * agent writes `\n` for a CRLF file as often as not. Mixed or unknown endings leave the text alone.
 */
export function adaptEol(text: string, reference: string | undefined): string {
  if (reference === undefined) return text;
  const want = uniformEol(reference);
  const have = uniformEol(text);
  if (!want || !have || want === have) return text;
  return want === '\r\n' ? text.replace(/\n/g, '\r\n') : text.replace(/\r\n/g, '\n');
}

/** True when text → bytes → text is lossless for this format (so a restore from text is byte-exact). */
export function roundTrips(bytes: Uint8Array, configured = 'utf8'): boolean {
  const { text, format } = decodeText(bytes, configured);
  try {
    return Buffer.compare(Buffer.from(encodeText(text, format)), Buffer.from(bytes)) === 0;
  } catch {
    return false;
  }
}

/**
 * `line` is 1-based; `limit` caps the number of lines; line endings are kept. Scans for newlines instead of splitting
 * the whole text, so a 100-line slice of a large file costs little more than finding it.
 */
export function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const lineStart = (from: number, count: number): number => {
    let at = from;
    for (let i = 0; i < count; i++) {
      const nl = text.indexOf('\n', at);
      if (nl < 0) return text.length;
      at = nl + 1;
    }
    return at;
  };
  const start = lineStart(0, Math.max(0, (line ?? 1) - 1));
  const end = limit === undefined ? text.length : lineStart(start, limit);
  return text.slice(start, end);
}
