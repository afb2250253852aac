import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type * as tar from 'tar';
import type * as yauzl from 'yauzl';
import { checkHardlink, checkSymlink, isInside, safeEntryPath, UnsafeArchiveError } from './archivePaths';
import * as l10n from '@vscode/l10n';

/**
 * Unpacks a downloaded agent: tar (gzip or bzip2) with node-tar, zip with yauzl, a bare executable copied as is.
 * Every entry is checked (archivePaths.ts) before anything is written; the writing itself is confined too (node-tar
 * refuses paths out of `cwd` and links it would follow out; zip entries are written by us, each path re-checked
 * against the real location of its folder).
 * The three libraries are loaded on the first install, not at activation: most windows never install an agent.
 */
const libraries = {
  tar: () => import('tar'),
  yauzl: () => import('yauzl'),
  unbzip2: async () => (await import('unbzip2-stream')).default,
};
export type ArchiveKind = 'zip' | 'tar.gz' | 'tar.bz2' | 'raw';

/** From the URL's path: `.zip`, `.tar.gz`/`.tgz`, `.tar.bz2`/`.tbz2`; anything else is the executable itself. */
export function archiveKind(url: string): ArchiveKind {
  let pathname = url;
  try {
    pathname = new URL(url).pathname;
  } catch {
    // a path, not a URL
  }
  const name = pathname.toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  if (name.endsWith('.tar.bz2') || name.endsWith('.tbz2')) return 'tar.bz2';
  return 'raw';
}

export async function extractArchive(file: string, kind: ArchiveKind, dest: string, rawName: string): Promise<void> {
  await fs.promises.mkdir(dest, { recursive: true });
  switch (kind) {
    case 'zip':
      return extractZip(file, dest);
    case 'tar.gz':
    case 'tar.bz2':
      await checkTar(file, kind);
      return tarPass(file, kind, (await libraries.tar()).x({ cwd: dest, strict: true, preserveOwner: false }));
    case 'raw': {
      const target = path.join(dest, safeEntryPath(rawName));
      if (!isInside(dest, target) || target === dest) throw new UnsafeArchiveError(rawName, l10n.t('is not a file name inside the install folder'));
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.copyFile(file, target);
      return;
    }
  }
}

async function tarPass(file: string, kind: ArchiveKind, sink: NodeJS.WritableStream): Promise<void> {
  const unbzip2Stream = kind === 'tar.bz2' ? await libraries.unbzip2() : undefined;
  const source = fs.createReadStream(file);
  // node-tar recognises gzip by itself; bzip2 is decompressed in front of it.
  return unbzip2Stream ? pipeline(source, unbzip2Stream(), sink) : pipeline(source, sink);
}

const ALLOWED_TAR_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);

/** The whole listing, read before anything is written; the first bad entry is the refusal. */
async function checkTar(file: string, kind: ArchiveKind): Promise<void> {
  let problem: unknown;
  const lister = (await libraries.tar()).t({
    strict: true,
    onReadEntry: (entry) => {
      // Thrown here it would escape the stream: kept, and thrown once the listing is read.
      try {
        if (problem === undefined) checkTarEntry(entry);
      } catch (error) {
        problem = error;
      }
      entry.resume();
    },
  });
  await tarPass(file, kind, lister);
  if (problem !== undefined) throw problem;
}

function checkTarEntry(entry: tar.ReadEntry): void {
  // Headers (pax, GNU long names) are folded into the entry by node-tar: `path` and `linkpath` are the final names.
  const name = entry.path;
  safeEntryPath(name);
  if (!ALLOWED_TAR_TYPES.has(entry.type)) throw new UnsafeArchiveError(name, l10n.t('is a {0} (only files, folders and links are unpacked)', entry.type));
  if (entry.type === 'SymbolicLink') checkSymlink(name, entry.linkpath ?? '');
  if (entry.type === 'Link') checkHardlink(name, entry.linkpath ?? '');
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

interface ZipItem {
  readonly entry: yauzl.Entry;
  readonly name: string;
  readonly mode: number;
}

async function extractZip(file: string, dest: string): Promise<void> {
  const yauzl = await libraries.yauzl();
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    // decodeStrings off: names are checked here, in full, rather than rejected one by one with yauzl's own words.
    yauzl.open(file, { lazyEntries: true, decodeStrings: false, autoClose: false }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  try {
    const items = await readZipEntries(zip);
    const realDest = await fs.promises.realpath(dest);
    for (const item of items) {
      const rel = safeEntryPath(item.name);
      const target = path.join(realDest, rel);
      const isDir = item.name.endsWith('/') || item.name.endsWith('\\') || (item.mode & S_IFMT) === S_IFDIR;
      if (isDir) {
        await fs.promises.mkdir(target, { recursive: true });
        continue;
      }
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      // The folder written into must really be inside (a link unpacked earlier cannot carry a write out).
      if (!isInside(realDest, await fs.promises.realpath(path.dirname(target)))) throw new UnsafeArchiveError(item.name, l10n.t('would be written through a link out of the install folder'));
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => zip.openReadStream(item.entry, (err, s) => (err ? reject(err) : resolve(s))));
      if ((item.mode & S_IFMT) === S_IFLNK) {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        await fs.promises.symlink(Buffer.concat(chunks).toString('utf8'), target);
        continue;
      }
      await pipeline(stream, fs.createWriteStream(target, { mode: item.mode & 0o777 ? (item.mode & 0o777) | 0o600 : 0o644 }));
    }
  } finally {
    zip.close();
  }
}

/** Every entry, checked, before anything is written. */
async function readZipEntries(zip: yauzl.ZipFile): Promise<ZipItem[]> {
  const items: ZipItem[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      void (async () => {
        // Bit 11: UTF-8 names; without it the names are CP437, where ASCII (all a path check needs) is the same.
        const raw = entry.fileName as unknown as Buffer;
        const name = raw.toString(entry.generalPurposeBitFlag & 0x800 ? 'utf8' : 'latin1');
        const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
        safeEntryPath(name);
        if ((mode & S_IFMT) === S_IFLNK) {
          const stream = await new Promise<NodeJS.ReadableStream>((res, rej) => zip.openReadStream(entry, (err, s) => (err ? rej(err) : res(s))));
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          checkSymlink(name, Buffer.concat(chunks).toString('utf8'));
        }
        items.push({ entry, name, mode });
        zip.readEntry();
      })().catch(reject);
    });
    zip.readEntry();
  });
  return items;
}

/**
 * The agent's command, after unpacking: inside the folder (also once links are resolved), a file, made executable.
 * Returns its path relative to `dest`.
 */
export async function prepareCommand(dest: string, cmd: string): Promise<string> {
  const rel = safeEntryPath(cmd);
  const file = path.join(dest, rel);
  let real: string;
  try {
    real = await fs.promises.realpath(file);
  } catch {
    throw new Error(l10n.t('The download does not contain the agent\'s command "{0}".', cmd));
  }
  if (!isInside(await fs.promises.realpath(dest), real)) throw new UnsafeArchiveError(cmd, l10n.t('is a link to a file outside the install folder'));
  const stat = await fs.promises.stat(real);
  if (!stat.isFile()) throw new Error(l10n.t('The agent\'s command "{0}" is not a file in the download.', cmd));
  if (process.platform !== 'win32') await fs.promises.chmod(real, stat.mode | 0o755);
  return rel;
}
