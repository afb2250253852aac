import * as path from 'node:path';
import * as l10n from '@vscode/l10n';

/**
 * What may land where when an archive is unpacked: every entry's name, and every link's target, must stay inside
 * the folder it is unpacked into. Checked on the names as written in the archive, before anything is written, so an
 * archive with one bad entry writes nothing. Forms refused: `..` anywhere that climbs out, absolute paths, drive
 * letters and UNC names (also with backslashes, which Windows-made zips use as separators), NUL bytes, names longer
 * than file systems take, and symbolic or hard links whose target leaves the folder.
 */
export class UnsafeArchiveError extends Error {
  constructor(
    readonly entry: string,
    readonly reason: string,
  ) {
    super(l10n.t('The archive was refused: its entry "{0}" {1}. Nothing was installed.', printable(entry), reason));
    this.name = 'UnsafeArchiveError';
  }
}

const printable = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s).replace(/[\u0000-\u001f]/g, '?');

const MAX_PATH = 4096;
const MAX_COMPONENT = 255;

/** The entry's path relative to the target folder, `/`-separated, or throws `UnsafeArchiveError`. */
export function safeEntryPath(name: string): string {
  if (name.includes('\0')) throw new UnsafeArchiveError(name, l10n.t('contains a NUL byte'));
  if (name.length > MAX_PATH) throw new UnsafeArchiveError(name, l10n.t('is longer than {0} characters', MAX_PATH));
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/')) throw new UnsafeArchiveError(name, l10n.t('is an absolute path'));
  if (/^[a-zA-Z]:/.test(slashed)) throw new UnsafeArchiveError(name, l10n.t('starts with a drive letter'));
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part.length > MAX_COMPONENT) throw new UnsafeArchiveError(name, l10n.t('has a name part longer than {0} characters', MAX_COMPONENT));
    if (part === '..') {
      if (parts.length === 0) throw new UnsafeArchiveError(name, l10n.t('climbs out of the install folder (..)'));
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** A symbolic link at `entry` pointing at `target` (relative to the link's folder) must resolve inside. */
export function checkSymlink(entry: string, target: string): void {
  if (!target) throw new UnsafeArchiveError(entry, l10n.t('is a link with no target'));
  const slashed = target.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) throw new UnsafeArchiveError(entry, l10n.t('is a link to an absolute path ({0})', printable(target)));
  const from = path.posix.dirname(safeEntryPath(entry));
  try {
    safeEntryPath(path.posix.join(from === '.' ? '' : from, slashed));
  } catch {
    throw new UnsafeArchiveError(entry, l10n.t('is a link pointing out of the install folder ({0})', printable(target)));
  }
}

/** A hard link's target is named from the archive's root. */
export function checkHardlink(entry: string, target: string): void {
  try {
    safeEntryPath(target);
  } catch {
    throw new UnsafeArchiveError(entry, l10n.t('is a hard link to a file outside the install folder ({0})', printable(target)));
  }
}

/** Whether `file` is `dir` or inside it, compared by path component. */
export function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
