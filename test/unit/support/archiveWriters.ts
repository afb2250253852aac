import * as zlib from 'node:zlib';

/**
 * Hand-made archives for tests, byte by byte, so an archive can hold what no well-behaved tool writes: `../` names,
 * absolute paths, links out, devices. Tar: ustar headers (with pax or GNU long names when asked); zip: stored entries.
 */
export interface TarItem {
  readonly name: string;
  readonly type?: '0' | '1' | '2' | '3' | '5';
  readonly body?: string | Buffer;
  readonly linkname?: string;
  readonly mode?: number;
  /** How a name too long for the header is carried. */
  readonly longName?: 'pax' | 'gnu';
}

function header(name: string, opts: { type: string; size: number; linkname?: string; mode?: number }): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, 'utf8');
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0') + '\0';
  h.write(octal(opts.mode ?? 0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(opts.size, 12), 124);
  h.write(octal(0, 12), 136);
  h.write('        ', 148);
  h.write(opts.type, 156);
  if (opts.linkname) h.write(opts.linkname.slice(0, 100), 157);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)]);

export function tarBuffer(items: readonly TarItem[]): Buffer {
  const parts: Buffer[] = [];
  for (const item of items) {
    const body = Buffer.from(item.body ?? '');
    if (item.longName === 'pax') {
      const record = (k: string, v: string) => {
        const text = ` ${k}=${v}\n`;
        let len = text.length + 1;
        while (String(len).length + text.length !== len) len = String(len).length + text.length;
        return `${len}${text}`;
      };
      const pax = Buffer.from(record('path', item.name) + (item.linkname ? record('linkpath', item.linkname) : ''));
      parts.push(header('PaxHeader', { type: 'x', size: pax.length }), pad(pax));
    } else if (item.longName === 'gnu') {
      const long = Buffer.from(`${item.name}\0`);
      parts.push(header('././@LongLink', { type: 'L', size: long.length }), pad(long));
    }
    const type = item.type ?? '0';
    parts.push(header(item.longName ? 'placeholder' : item.name, { type, size: type === '0' ? body.length : 0, linkname: item.linkname, mode: item.mode }));
    if (type === '0') parts.push(pad(body));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export const tarGz = (items: readonly TarItem[]): Buffer => zlib.gzipSync(tarBuffer(items));

export interface ZipItem {
  readonly name: string;
  readonly body?: string | Buffer;
  /** Unix mode with its type bits (0o120777 for a symbolic link, whose body is the target). */
  readonly mode?: number;
}

export function zipBuffer(items: readonly ZipItem[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const item of items) {
    const name = Buffer.from(item.name, 'utf8');
    const body = Buffer.from(item.body ?? '');
    const crc = zlib.crc32(body);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(body.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(body.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((item.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(items.length, 8);
  end.writeUInt16LE(items.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
