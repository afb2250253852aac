import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TreeSnapshot } from '../../../src/edits/snapshot';
import type { SnapshotOptions } from '../../../src/edits/snapshot';

export const sha = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The two engines: the worker thread (built by test/unit/build.mjs beside the tests) and this thread. */
export const ENGINES = [
  { name: 'worker', workerScript: path.join(__dirname, '..', 'snapshotWalker.js') },
  { name: 'in-process', workerScript: false },
] as const;
export type EngineChoice = (typeof ENGINES)[number];

/** A temp folder with `root/` (the snapshot's root) and `store/` beside it; removed by `dispose`. */
export class TempTree {
  readonly base = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-snap-'));
  readonly root = path.join(this.base, 'root');
  readonly store = path.join(this.base, 'store');

  constructor(readonly engine: EngineChoice = ENGINES[0]) {
    fs.mkdirSync(this.root);
  }

  p(rel: string): string {
    return path.join(this.root, rel);
  }

  /** Writes a file (making its folders), its mtime an hour ago unless `fresh`: no racy re-reads in the next refresh. */
  write(rel: string, content: string | Uint8Array, fresh = false): string {
    const file = this.p(rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    if (!fresh) age(file);
    return file;
  }

  snapshot(options: Partial<SnapshotOptions> = {}): TreeSnapshot {
    const snap = new TreeSnapshot({ roots: [this.root], storeDir: this.store, exclude: ['**/node_modules/**'], workerScript: this.engine.workerScript, ...options });
    this.made.push(snap);
    return snap;
  }

  private readonly made: TreeSnapshot[] = [];

  /** Every regular file under the root (outside .git), relative path → content. */
  files(): Map<string, string> {
    const out = new Map<string, string>();
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const abs = path.join(dir, e.name);
        if (e.isDirectory()) walk(abs);
        else if (e.isFile()) out.set(path.relative(this.root, abs), fs.readFileSync(abs, 'latin1'));
      }
    };
    walk(this.root);
    return out;
  }

  /** Lets every snapshot made here finish saving, stops their workers, removes the folder. */
  async dispose(): Promise<void> {
    for (const snap of this.made) {
      await snap.flush();
      snap.dispose();
    }
    fs.rmSync(this.base, { recursive: true, force: true });
  }
}

/** Sets a file's times an hour back (its ctime becomes now: only the mtime decides whether a file is racy). */
export function age(file: string, seconds = 3600): void {
  const t = new Date(Date.now() - seconds * 1000);
  fs.utimesSync(file, t, t);
}

const FAILING = new Set(['open', 'readdir', 'readFile']);
type Patched = { target: Record<string, unknown>; name: string; original: unknown };
// The modules themselves, not the bundler's read-only namespace copies of them.
const realFs = require('node:fs') as Record<string, unknown> & { promises: Record<string, unknown> };

/**
 * Records the path of every file-system call the snapshot makes (callback `fs` and `fs/promises`), and can make
 * chosen paths fail. Works because the bundled source reads `fs.lstat` etc. from the shared module at each call.
 */
export class FsSpy {
  readonly paths: string[] = [];
  private readonly patched: Patched[] = [];
  /** path → error code that opening, listing or reading it fails with (stat calls still succeed). */
  readonly failures = new Map<string, string>();
  /** path → a function whose result replaces lstat's stats (for simulating coarse timestamps). */
  readonly lstatOverride = new Map<string, (st: fs.BigIntStats) => fs.BigIntStats>();

  constructor() {
    const callbacks = ['lstat', 'readdir', 'readFile', 'stat', 'open', 'readlink'];
    for (const name of callbacks) this.wrapCallback(realFs, name);
    const promises = ['open', 'readFile', 'readdir', 'lstat', 'stat', 'readlink', 'writeFile', 'rename', 'unlink', 'mkdir'];
    for (const name of promises) this.wrapPromise(realFs.promises, name);
  }

  under(dir: string): string[] {
    return this.paths.filter((p) => p === dir || p.startsWith(dir + path.sep));
  }

  restore(): void {
    for (const { target, name, original } of this.patched.reverse()) target[name] = original;
  }

  private wrapCallback(target: Record<string, unknown>, name: string): void {
    const original = target[name] as (...args: unknown[]) => unknown;
    this.patched.push({ target, name, original });
    target[name] = (...args: unknown[]) => {
      const p = String(args[0]);
      this.paths.push(p);
      const code = FAILING.has(name) ? this.failures.get(p) : undefined;
      const cb = args[args.length - 1] as (error: unknown, value?: unknown) => void;
      if (code) return void process.nextTick(() => cb(Object.assign(new Error(`${code}: ${p}`), { code })));
      const override = name === 'lstat' ? this.lstatOverride.get(p) : undefined;
      if (override) {
        args[args.length - 1] = (error: unknown, st: fs.BigIntStats) => cb(error, error ? st : override(st));
      }
      return original.apply(realFs, args);
    };
  }

  private wrapPromise(target: Record<string, unknown>, name: string): void {
    const original = target[name] as (...args: unknown[]) => Promise<unknown>;
    this.patched.push({ target, name, original });
    target[name] = (...args: unknown[]) => {
      const p = String(args[0]);
      this.paths.push(p);
      const code = FAILING.has(name) ? this.failures.get(p) : undefined;
      if (code) return Promise.reject(Object.assign(new Error(`${code}: ${p}`), { code }));
      return original.apply(realFs.promises, args);
    };
  }
}
