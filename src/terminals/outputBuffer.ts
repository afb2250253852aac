import { StringDecoder } from 'node:string_decoder';

/**
 * The retained output of a command, at most `limit` bytes of UTF-8, dropped from the beginning (DIGEST §18): the cut
 * lands on a character boundary, so the text may hold slightly fewer bytes than the limit, and `truncated` stays true
 * once anything was dropped.
 *
 * Appending is cheap even for hundreds of megabytes: chunks are kept as they come and whole chunks are dropped only once
 * the buffer holds about twice the limit; the exact cut is made when the text is read, and remembered.
 */
export class OutputBuffer {
  private chunks: string[] = [];
  private sizes: number[] = [];
  private bytes = 0;
  private dropped = false;
  private cached: string | undefined;

  /** `limit` in bytes; `Infinity` keeps everything. */
  constructor(readonly limit: number) {
    if (!(limit >= 0)) throw new RangeError(`Output limit must be a non-negative number of bytes, got ${limit}`);
  }

  /** `size`: the text's UTF-8 length when the caller already knows it (one command feeds two buffers). */
  append(text: string, size = Buffer.byteLength(text, 'utf8')): void {
    if (text.length === 0) return;
    this.chunks.push(text);
    this.sizes.push(size);
    this.bytes += size;
    this.cached = undefined;
    if (this.bytes > this.limit && this.bytes - this.limit > Math.max(this.limit, 64 * 1024)) this.compact();
  }

  /** True once output was dropped to stay within the limit. */
  get truncated(): boolean {
    if (this.dropped) return true;
    return this.bytes > this.limit;
  }

  /** Bytes of the text `text` returns. */
  get byteLength(): number {
    this.settle();
    return this.bytes;
  }

  /** The retained output: the last `limit` bytes at most, starting on a character boundary. */
  get text(): string {
    if (this.cached !== undefined) return this.cached;
    this.settle();
    const text = this.chunks.length === 1 ? this.chunks[0] : this.chunks.join('');
    // One chunk from here on: later reads and appends do not join again.
    this.chunks = text ? [text] : [];
    this.sizes = text ? [this.bytes] : [];
    this.cached = text;
    return text;
  }

  /** Drops whole chunks that lie entirely before the last `limit` bytes. */
  private compact(): void {
    let drop = 0;
    while (drop < this.chunks.length && this.bytes - this.sizes[drop] >= this.limit) {
      this.bytes -= this.sizes[drop];
      drop++;
    }
    if (drop > 0) {
      this.chunks.splice(0, drop);
      this.sizes.splice(0, drop);
      this.dropped = true;
    }
  }

  /** Makes the retained text exactly fit the limit. */
  private settle(): void {
    if (this.bytes <= this.limit) return;
    this.compact();
    if (this.bytes <= this.limit) return;
    const excess = this.bytes - this.limit;
    const first = cutStart(this.chunks[0], excess);
    const size = Buffer.byteLength(first, 'utf8');
    this.bytes += size - this.sizes[0];
    this.chunks[0] = first;
    this.sizes[0] = size;
    this.dropped = true;
  }
}

/** `text` without its first `excessBytes` bytes, moved forward to the next character boundary if the cut splits one. */
export function cutStart(text: string, excessBytes: number): string {
  if (excessBytes <= 0) return text;
  // A UTF-16 code unit takes at least one byte, so the last `keep` bytes lie within the last `keep` code units:
  // encode only those, not a chunk that may be megabytes long.
  const total = Buffer.byteLength(text, 'utf8');
  const keep = total - excessBytes;
  if (keep <= 0) return '';
  let from = Math.max(0, text.length - keep);
  if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from--;
  const tail = Buffer.from(from === 0 ? text : text.slice(from), 'utf8');
  let cut = tail.length - keep;
  // Skip UTF-8 continuation bytes (10xxxxxx): the cut must not split a character.
  while (cut < tail.length && (tail[cut] & 0xc0) === 0x80) cut++;
  return tail.toString('utf8', cut);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Turns the bytes of one stream into text, keeping a character split between two reads whole. stdout and stderr each
 * need their own: interleaving their raw bytes could split a character of one with bytes of the other.
 */
export class StreamText {
  private readonly decoder = new StringDecoder('utf8');
  write(chunk: Buffer): string {
    return this.decoder.write(chunk);
  }
  end(): string {
    return this.decoder.end();
  }
}
