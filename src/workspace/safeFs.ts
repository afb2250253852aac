import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { RpcError } from '../acp/errors';
import { deny, type Sandbox } from './sandbox';

/**
 * File access that closes the gap between the sandbox's check and the use: a link swapped in after `resolve` must not
 * redirect a read or a write. On Linux every component is opened relative to its parent's descriptor (through
 * `/proc/self/fd/N/name`, Node's stand-in for `openat`) with O_NOFOLLOW, so no path is resolved twice; elsewhere the
 * opened file is checked after the fact (its real path inside a root, the same inode as the path now names).
 * Plain Node: no `vscode`.
 */

const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

export class FileTooLargeError extends Error {
  constructor(readonly size: number, readonly limit: number) {
    super(`the file is ${size} bytes, over the ${limit}-byte limit`);
  }
}

/** Reads a regular file inside the sandbox. ENOENT comes back as -32002; anything swapped or special fails closed. */
export async function readInside(sandbox: Sandbox, real: string, maxBytes: number): Promise<Buffer> {
  const dir = await openDirectory(sandbox, path.dirname(real), false);
  let file: fs.FileHandle | undefined;
  try {
    try {
      file = await fs.open(dir.at(path.basename(real)), constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      throw fileError(error, real);
    }
    const stat = await file.stat();
    if (!stat.isFile()) throw deny(real, 'it is not a regular file');
    if (stat.size > maxBytes) throw new FileTooLargeError(stat.size, maxBytes);
    await verifyOpened(sandbox, file, real);
    const bytes = await file.readFile();
    if (bytes.length > maxBytes) throw new FileTooLargeError(bytes.length, maxBytes);
    return bytes;
  } finally {
    await file?.close();
    await dir.close();
  }
}

/** The bytes, or undefined when the file does not exist. Other failures still throw. */
export async function readInsideIfExists(sandbox: Sandbox, real: string, maxBytes: number): Promise<Buffer | undefined> {
  try {
    return await readInside(sandbox, real, maxBytes);
  } catch (error) {
    if (error instanceof RpcError && error.code === -32002) return undefined;
    throw error;
  }
}

/**
 * Writes atomically: a temporary file created next to the target (O_EXCL, O_NOFOLLOW), flushed, then renamed over it.
 * Missing parent folders are created one component at a time, never through a link. An existing file keeps its mode.
 */
export async function writeInsideAtomic(sandbox: Sandbox, real: string, bytes: Uint8Array): Promise<void> {
  const dir = await openDirectory(sandbox, path.dirname(real), true);
  const name = path.basename(real);
  const temp = `.${name.slice(0, 100)}.howdah-${randomBytes(6).toString('hex')}.tmp`;
  let created = false;
  try {
    const existing = await fs.lstat(dir.at(name)).catch(() => undefined);
    if (existing?.isDirectory()) throw deny(real, 'it is a directory');
    const mode = existing?.isFile() ? existing.mode & 0o7777 : 0o666;
    const file = await fs.open(dir.at(temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, mode);
    created = true;
    try {
      // The umask may have narrowed the mode at creation; an existing file's own mode is what the user set.
      if (existing?.isFile()) await file.chmod(mode);
      await file.writeFile(bytes);
      await file.sync();
      await verifyOpened(sandbox, file, path.join(path.dirname(real), temp));
    } finally {
      await file.close();
    }
    await dir.verifyStill();
    await fs.rename(dir.at(temp), dir.at(name));
    created = false;
  } finally {
    if (created) await fs.unlink(dir.at(temp)).catch(() => undefined);
    await dir.close();
  }
}

interface OpenDirectory {
  /** A path naming `name` inside this directory that does not depend on the directory's path staying put. */
  at(name: string): string;
  /** Off Linux: the directory's path still names the directory that was checked. */
  verifyStill(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a directory inside the sandbox by walking down from the root that contains it, one component at a time with
 * O_NOFOLLOW relative to the parent's descriptor, creating missing components when `create`.
 */
async function openDirectory(sandbox: Sandbox, dirReal: string, create: boolean): Promise<OpenDirectory> {
  if (!PROC_FD) return openDirectoryByPath(sandbox, dirReal, create);
  const root = await containingRealRoot(sandbox, dirReal);
  let handle = await fs.open(root, constants.O_RDONLY | O_DIRECTORY);
  try {
    const rest = path.relative(root, dirReal).split(path.sep).filter((c) => c && c !== '.');
    for (const component of rest) {
      if (component === '..') throw deny(dirReal, 'it leaves its folder');
      const next = `/proc/self/fd/${handle.fd}/${component}`;
      let child: fs.FileHandle;
      try {
        child = await fs.open(next, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && create) {
          await fs.mkdir(next).catch((e: NodeJS.ErrnoException) => {
            if (e.code !== 'EEXIST') throw e;
          });
          child = await fs.open(next, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch((e: unknown) => {
            throw fileError(e, dirReal);
          });
        } else {
          throw fileError(error, dirReal);
        }
      }
      await handle.close();
      handle = child;
    }
    await verifyOpened(sandbox, handle, dirReal);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const fd = handle.fd;
  return {
    at: (name) => `/proc/self/fd/${fd}/${name}`,
    verifyStill: () => verifyOpened(sandbox, handle, dirReal),
    close: () => handle.close(),
  };
}

/** Without /proc: create by path, then check the directory's real path and identity before and after each use. */
async function openDirectoryByPath(sandbox: Sandbox, dirReal: string, create: boolean): Promise<OpenDirectory> {
  if (create) await fs.mkdir(dirReal, { recursive: true });
  const check = async () => {
    const real = await fs.realpath(dirReal).catch((e: unknown) => {
      throw fileError(e, dirReal);
    });
    if (!(await sandbox.containsReal(real))) throw deny(dirReal, `it now resolves to ${real}, outside the workspace`);
    return fs.stat(real, { bigint: true });
  };
  const first = await check();
  return {
    at: (name) => path.join(dirReal, name),
    verifyStill: async () => {
      const now = await check();
      if (now.ino !== first.ino || now.dev !== first.dev) throw deny(dirReal, 'it was replaced while in use');
    },
    close: async () => undefined,
  };
}

/** The real path of an opened descriptor must lie inside the sandbox (and, off Linux, be the file the path names). */
async function verifyOpened(sandbox: Sandbox, handle: fs.FileHandle, expected: string): Promise<void> {
  if (PROC_FD) {
    const actual = await fs.readlink(`/proc/self/fd/${handle.fd}`);
    if (actual.endsWith(' (deleted)') || !(await sandbox.containsReal(actual))) {
      throw deny(expected, `it was swapped while in use and now is ${actual}`);
    }
    return;
  }
  const real = await fs.realpath(expected).catch(() => undefined);
  if (real === undefined || !(await sandbox.containsReal(real))) throw deny(expected, 'it was swapped while in use');
  const [opened, named] = await Promise.all([handle.stat({ bigint: true }), fs.stat(real, { bigint: true })]);
  if (opened.ino !== named.ino || opened.dev !== named.dev) throw deny(expected, 'it was swapped while in use');
}

async function containingRealRoot(sandbox: Sandbox, real: string): Promise<string> {
  let best: string | undefined;
  for (const root of sandbox.roots) {
    const realRoot = await fs.realpath(root).catch(() => undefined);
    if (realRoot === undefined) continue;
    const rel = path.relative(realRoot, real);
    const inside = rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    if (inside && (best === undefined || realRoot.length > best.length)) best = realRoot;
  }
  if (best === undefined || !(await sandbox.containsReal(real))) throw deny(real, 'it is outside the workspace');
  return best;
}

function fileError(error: unknown, real: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return RpcError.resourceNotFound(`File not found: ${real}`, { path: real });
  if (code === 'ELOOP' || code === 'EMLINK') return deny(real, 'a symbolic link was put in its way');
  if (code === 'ENOTDIR') return deny(real, 'a folder on its way is not a folder');
  if (code === 'EISDIR') return deny(real, 'it is a directory');
  return error instanceof Error ? error : new Error(String(error));
}
