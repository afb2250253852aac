import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { RpcError } from '../acp/errors';

/**
 * Confines agent paths to the session's roots (its cwd plus the other workspace folders). A path must be absolute and
 * inside a root both as written and after resolving symbolic links at the time of use (for a path that does not exist
 * yet, through its nearest existing ancestor), compared by whole path components. Anything else fails closed with
 * -32602 naming the path and why. Plain Node: no `vscode`, so it is unit-tested directly.
 */
export class Sandbox {
  private readonly caseInsensitive: boolean;

  constructor(
    private readonly roots: readonly string[],
    options: { caseInsensitive?: boolean } = {},
  ) {
    this.caseInsensitive = options.caseInsensitive ?? (process.platform === 'win32' || process.platform === 'darwin');
  }

  /** The resolved, real path for an agent path, or a thrown -32602. `mustExist` for reads. */
  async resolve(requested: unknown, purpose: 'read' | 'write' | 'cwd'): Promise<string> {
    const lexical = this.checkLexical(requested);
    const real = await realPathOfNearest(lexical);
    const realRoots = await Promise.all(this.roots.map((r) => fs.realpath(r).catch(() => path.resolve(r))));
    if (!realRoots.some((root) => this.contains(root, real))) {
      throw deny(String(requested), `it resolves through a symbolic link to ${real}, outside the workspace`, purpose);
    }
    return real;
  }

  /** The path as written: a string, absolute, without NUL, inside a root once `..` segments are resolved. */
  checkLexical(requested: unknown): string {
    if (typeof requested !== 'string' || requested.length === 0) throw deny(String(requested), 'it is not a path');
    if (requested.includes('\0')) throw deny(requested, 'it contains a NUL character');
    if (!path.isAbsolute(requested)) throw deny(requested, 'it is not an absolute path');
    if (process.platform !== 'win32' && (/^[a-zA-Z]:[\\/]/.test(requested) || requested.startsWith('\\\\'))) {
      throw deny(requested, 'it is a Windows path');
    }
    const normal = path.resolve(requested);
    if (!this.roots.some((root) => this.contains(path.resolve(root), normal))) {
      throw deny(requested, 'it is outside the workspace folders');
    }
    return normal;
  }

  /** Component-wise containment: `/a/bc` is not inside `/a/b`. */
  contains(root: string, candidate: string): boolean {
    const a = this.caseInsensitive ? root.toLowerCase() : root;
    const b = this.caseInsensitive ? candidate.toLowerCase() : candidate;
    if (a === b) return true;
    const prefix = a.endsWith(path.sep) ? a : a + path.sep;
    return b.startsWith(prefix);
  }
}

/** realpath of the path, or of its nearest existing ancestor with the missing components appended. */
async function realPathOfNearest(p: string): Promise<string> {
  const missing: string[] = [];
  let current = p;
  for (let hops = 0; ; hops++) {
    if (hops > 64) throw RpcError.invalidParams(`Refused path ${JSON.stringify(p)}: too many symbolic links.`, { path: p });
    try {
      const real = await fs.realpath(current);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // A dangling link: lstat succeeds, realpath does not. Resolve it by hand so its target is checked.
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

function deny(requested: string, why: string, purpose?: string): RpcError {
  const what = purpose === 'cwd' ? 'working directory' : 'path';
  return RpcError.invalidParams(`Refused ${what} ${JSON.stringify(requested)}: ${why}.`, { path: requested, reason: why });
}
