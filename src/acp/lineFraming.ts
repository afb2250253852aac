import { MessageTooLargeError } from './errors';

/** Largest line we accept from an agent: ACP has no limit, the official SDK uses 32 MiB; real tool outputs can be big. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface LineSink {
  line(text: string): void;
  /** A line over the cap was skipped; the stream continues with the next line. */
  oversized(error: MessageTooLargeError): void;
}

/**
 * Splits a byte stream into lines ("\n", tolerating "\r\n"). The newline is searched in bytes and only whole lines
 * are decoded (0x0A never occurs inside a multi-byte UTF-8 sequence), so a character split across chunks is decoded
 * whole. A line larger than the cap is skipped without being buffered: its bytes are counted, not kept.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private pending = 0;
  private skipping = false;

  constructor(
    private readonly sink: LineSink,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    if (!this.skipping && this.pushWhole(chunk)) return;
    this.pushLines(chunk, 0);
  }

  /**
   * The common case: everything up to the chunk's last newline, with what was kept before it, is within the cap, so no
   * line in it can be over: it is decoded with one call and split as text (decoding line by line costs more than the
   * parse). Returns false, having done nothing, when the cap needs each line's size.
   */
  private pushWhole(chunk: Buffer): boolean {
    const last = chunk.lastIndexOf(10);
    if (last === -1 || this.pending + last > this.maxBytes) return false;
    let text: string;
    if (this.parts.length === 0) {
      text = chunk.toString('utf8', 0, last);
    } else {
      this.parts.push(chunk.subarray(0, last));
      text = Buffer.concat(this.parts).toString('utf8');
      this.reset();
    }
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      this.emit(nl === -1 ? text.slice(start) : text.slice(start, nl));
      if (nl === -1) break;
      start = nl + 1;
    }
    this.keep(chunk.subarray(last + 1));
    return true;
  }

  private emit(line: string): void {
    const text = line.length > 0 && line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
    if (text.length > 0) this.sink.line(text);
  }

  /** Line by line, each line's bytes counted against the cap. */
  private pushLines(chunk: Buffer, from: number): void {
    let start = from;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        this.keep(chunk.subarray(start));
        return;
      }
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.skipping) {
        this.skipping = false;
        this.sink.oversized(new MessageTooLargeError(this.pending + piece.length, this.maxBytes));
        this.pending = 0;
        continue;
      }
      if (this.pending + piece.length > this.maxBytes) {
        this.sink.oversized(new MessageTooLargeError(this.pending + piece.length, this.maxBytes));
        this.reset();
        continue;
      }
      let text: string;
      if (this.parts.length === 0) {
        text = piece.toString('utf8');
      } else {
        this.parts.push(piece);
        text = Buffer.concat(this.parts).toString('utf8');
        this.reset();
      }
      this.emit(text);
    }
  }

  /** The stream ended: a final line without a newline still counts. */
  end(): void {
    if (this.skipping) {
      this.sink.oversized(new MessageTooLargeError(this.pending, this.maxBytes));
    } else if (this.parts.length > 0) {
      let text = Buffer.concat(this.parts).toString('utf8');
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (text.length > 0) this.sink.line(text);
    }
    this.reset();
  }

  private keep(rest: Buffer): void {
    if (rest.length === 0) return;
    if (this.skipping) {
      this.pending += rest.length;
      return;
    }
    if (this.pending + rest.length > this.maxBytes) {
      this.parts = [];
      this.skipping = true;
      this.pending += rest.length;
      return;
    }
    // Copy: the caller may reuse the chunk's memory.
    this.parts.push(Buffer.from(rest));
    this.pending += rest.length;
  }

  private reset(): void {
    this.parts = [];
    this.pending = 0;
    this.skipping = false;
  }
}
