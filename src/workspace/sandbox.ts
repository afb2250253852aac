import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';
import { RpcError } from '../acp/errors';

export type Purpose = 'read' | 'write' | 'cwd';

export interface SandboxOptions {
  /** Compare paths ignoring case. Default: probed per root on first use (does the root answer to its swapped case?). */
  caseInsensitive?: boolean;
  /** Path rules to apply; default the running platform. Lets the Windows forms be tested on POSIX. */
  platform?: NodeJS.Platform;
}

/** Longer than any real path; a longer one is an attack or a bug, refused either way. */
const MAX_PATH_LENGTH = 4096;

/**
 * Confines agent paths to the session's roots (its cwd, the other workspace folders, folders the user added). A path
 * must be absolute and inside a root both as written and after resolving symbolic links at the time of use (for a path
 * that does not exist yet, through its nearest existing ancestor), compared by whole path components, ignoring case
 * where the file system does. Anything else fails closed with -32602 naming the path and why. The check-then-use gap
 * is closed by `safeFs.ts`, which opens what was checked without following links. Plain Node: no `vscode`.
 */
export class Sandbox {
  private readonly rootList: string[] = [];
  private readonly path: typeof nodePath.posix;
  private readonly windows: boolean;
  private readonly foldCase = new Map<string, Promise<boolean>>();

  constructor(
    roots: readonly string[],
    private readonly options: SandboxOptions = {},
  ) {
    this.windows = (options.platform ?? process.platform) === 'win32';
    this.path = this.windows ? nodePath.win32 : nodePath.posix;
    for (const root of roots) this.addRoot(root);
  }

  get roots(): readonly string[] {
    return this.rootList;
  }

  /** A folder the user granted the agent (e.g. "Add Folder to Agent Access"); must be absolute. */
  addRoot(root: string): void {
    if (!this.path.isAbsolute(root)) throw new Error(`A sandbox root must be absolute: ${root}`);
    const normal = this.path.resolve(root);
    if (!this.rootList.includes(normal)) this.rootList.push(normal);
  }

  /** The real path for an agent path, or a thrown -32602. For `cwd`, it must be an existing directory. */
  async resolve(requested: unknown, purpose: Purpose): Promise<string> {
    const lexical = this.checkLexical(requested, purpose);
    const real = await realPathOfNearest(lexical, this.path).catch((error: unknown) => {
      throw error instanceof RpcError ? error : deny(lexical, `it cannot be resolved (${(error as Error).message})`, purpose);
    });
    if (!(await this.containsReal(real))) {
      throw deny(String(requested), `it resolves through a symbolic link to ${real}, outside the workspace`, purpose);
    }
    if (purpose === 'cwd') {
      const stat = await fs.stat(real).catch(() => undefined);
      if (!stat?.isDirectory()) throw deny(String(requested), stat ? 'it is not a directory' : 'it does not exist', purpose);
    }
    return real;
  }

  /** The path as written: a string, absolute, plain, inside a root once `.` and `..` segments are resolved. */
  checkLexical(requested: unknown, purpose?: Purpose): string {
    if (typeof requested !== 'string' || requested.length === 0) throw deny(String(requested), 'it is not a path', purpose);
    const why = this.malformed(requested);
    if (why) throw deny(requested, why, purpose);
    const normal = this.path.resolve(requested);
    if (!this.rootList.some((root) => this.containsLexically(root, normal))) {
      throw deny(requested, 'it is outside the workspace folders', purpose);
    }
    return normal;
  }

  /** True when a real (link-free) path lies inside the real path of some root. */
  async containsReal(real: string): Promise<boolean> {
    for (const root of this.rootList) {
      const realRoot = await fs.realpath(root).catch(() => undefined);
      if (realRoot === undefined) continue;
      if (componentsWithin(this.split(realRoot), this.split(real), await this.caseFolds(realRoot))) return true;
    }
    return false;
  }

  /**
   * A real path spelled under the root that holds it, as that root was given: a workspace folder opened through a
   * link (macOS's /tmp, a linked checkout) keeps its own spelling, which is the one VS Code's documents and watchers
   * use. Links inside the workspace stay resolved.
   */
  async viewPath(real: string): Promise<string> {
    let best: { root: string; depth: number } | undefined;
    for (const root of this.rootList) {
      const realRoot = await fs.realpath(root).catch(() => undefined);
      if (realRoot === undefined) continue;
      const rootParts = this.split(realRoot);
      if (!componentsWithin(rootParts, this.split(real), await this.caseFolds(realRoot))) continue;
      if (!best || rootParts.length > best.depth) best = { root, depth: rootParts.length };
    }
    if (!best) return real;
    return this.path.join(best.root, ...this.split(real).slice(best.depth));
  }

  /** Component-wise containment: `/a/bc` is not inside `/a/b`. Case folded if the sandbox was told to. */
  contains(root: string, candidate: string): boolean {
    return componentsWithin(this.split(root), this.split(candidate), this.options.caseInsensitive ?? this.windows);
  }

  /** Before the file system is asked: lexical containment, folding case when the platform may (fail closed). */
  private containsLexically(root: string, candidate: string): boolean {
    const fold = this.options.caseInsensitive ?? (this.windows || process.platform === 'darwin');
    return componentsWithin(this.split(root), this.split(candidate), fold);
  }

  private split(p: string): string[] {
    return p.split(this.windows ? /[\\/]+/ : /\/+/).filter((c) => c.length > 0);
  }

  /** Whether the file system under `realRoot` ignores case: it does if the root answers to its swapped case. */
  private caseFolds(realRoot: string): Promise<boolean> {
    if (this.options.caseInsensitive !== undefined) return Promise.resolve(this.options.caseInsensitive);
    let probe = this.foldCase.get(realRoot);
    if (!probe) {
      probe = probeCaseInsensitive(realRoot, this.windows);
      this.foldCase.set(realRoot, probe);
    }
    return probe;
  }

  /** Why a path string is not acceptable before any resolution, or undefined. */
  private malformed(p: string): string | undefined {
    if (p.length > MAX_PATH_LENGTH) return 'it is too long';
    if (p.includes('\0')) return 'it contains a NUL character';
    if (/[\x01-\x1f\x7f]/.test(p)) return 'it contains a control character';
    if (/%(?:2e|2f|5c|00)/i.test(p)) return 'it contains percent-encoded path characters, which are not decoded';
    if (/^[a-z][a-z0-9+.-]+:\/\//i.test(p)) return 'it is a URI, not a file path';
    if (p.startsWith('~')) return 'it starts with ~, which is not expanded: give an absolute path';
    if (this.windows) return this.malformedWindows(p);
    if (/^[a-zA-Z]:/.test(p)) return 'it is a Windows drive path';
    if (p.startsWith('\\\\') || p.startsWith('//?/') || p.startsWith('//./')) return 'it is a Windows UNC or device path';
    if (p.includes('\\')) return 'it contains a backslash';
    if (!this.path.isAbsolute(p)) return 'it is not an absolute path';
    return undefined;
  }

  private malformedWindows(p: string): string | undefined {
    if (/^[\\/]{2}[?.][\\/]/.test(p)) return 'it is a Windows device or long path';
    if (!/^[a-zA-Z]:[\\/]/.test(p) && !/^[\\/]{2}[^\\/]/.test(p)) return 'it is not an absolute path';
    const rest = p.replace(/^[a-zA-Z]:/, '');
    if (rest.includes(':')) return 'it names an alternate data stream';
    for (const component of rest.split(/[\\/]+/)) {
      if (component === '.' || component === '..' || component === '') continue;
      if (/[. ]$/.test(component)) return 'a path component ends in a dot or space';
      if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(component)) return 'it names a Windows device';
      if (/[<>"|?*]/.test(component)) return 'it contains a character Windows does not allow in names';
    }
    return undefined;
  }
}

function componentsWithin(root: string[], candidate: string[], fold: boolean): boolean {
  if (candidate.length < root.length) return false;
  const norm = (s: string) => (fold ? s.normalize('NFC').toLowerCase() : s);
  for (let i = 0; i < root.length; i++) if (norm(root[i]) !== norm(candidate[i])) return false;
  return true;
}

async function probeCaseInsensitive(realRoot: string, windows: boolean): Promise<boolean> {
  const swapped = realRoot.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  if (swapped === realRoot) return windows || process.platform === 'darwin';
  try {
    const [a, b] = await Promise.all([fs.stat(realRoot, { bigint: true }), fs.stat(swapped, { bigint: true })]);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

/** realpath of the path, or of its nearest existing ancestor with the missing components appended. */
async function realPathOfNearest(p: string, path: typeof nodePath.posix): Promise<string> {
  const missing: string[] = [];
  let current = p;
  for (let hops = 0; ; hops++) {
    if (hops > 64) throw RpcError.invalidParams(`Refused path ${JSON.stringify(p)}: too many symbolic links.`, { path: p, reason: 'too many symbolic links' });
    try {
      const real = await fs.realpath(current);
      return missing.length ? path.join(real, ...[...missing].reverse()) : real;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw deny(p, 'it goes through a loop of symbolic links');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // A dangling link: lstat succeeds, realpath does not. Follow it by hand so its target is what gets checked.
      const link = await fs.readlink(current).catch(() => undefined);
      if (link !== undefined) {
        current = path.resolve(path.dirname(current), link);
        continue;
      }
      const parent = path.dirname(current);
      if (parent === current) return p;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** The -32602 every refusal becomes: names the path and why, in one sentence. */
export function deny(requested: string, why: string, purpose?: Purpose): RpcError {
  const what = purpose === 'cwd' ? 'working directory' : 'path';
  return RpcError.invalidParams(`Refused ${what} ${JSON.stringify(requested)}: ${why}.`, { path: requested, reason: why });
}
