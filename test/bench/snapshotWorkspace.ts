/** The snapshot bench's workspaces and the private git index it is compared with. */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Layout {
  name: string;
  /** Source-like text files (unique content), in nested folders. */
  small: number;
  smallBytes: [number, number];
  /** Binary-like files of 1–8 MB. */
  large: number;
  nodeModules: number;
  /** Files in a `.gitignore`d build folder. */
  build: number;
}

export const LAYOUTS: Record<string, Layout> = {
  '10k': { name: '10,000 files', small: 8000, smallBytes: [1024, 19 * 1024], large: 30, nodeModules: 1500, build: 470 },
  '50k': { name: '50,000 files', small: 46000, smallBytes: [512, 5 * 1024], large: 26, nodeModules: 3000, build: 974 },
};

let seed = 7;
const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const between = (lo: number, hi: number): number => Math.floor(lo + random() * (hi - lo));

/** ~1 MB of source-like text; each small file is a slice of it behind a unique first line. */
const POOL = (() => {
  const words = ['const', 'return', 'value', 'await', 'export', 'function', 'if', 'else', 'items', 'index', 'result', 'map', 'filter', 'this', 'state'];
  const lines: string[] = [];
  for (let size = 0; size < 1024 * 1024; ) {
    const line = `${'  '.repeat(between(0, 4))}${Array.from({ length: between(3, 12) }, () => words[between(0, words.length)]).join(' ')};\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
})();

export interface Workspace {
  root: string;
  files: string[];
  smallFiles: string[];
  bytes: number;
  count: number;
}

export function generate(root: string, layout: Layout): Workspace {
  const files: string[] = [];
  const smallFiles: string[] = [];
  let bytes = 0;
  const put = (rel: string, content: string | Buffer): string => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    files.push(file);
    bytes += content.length;
    return file;
  };
  for (let i = 0; i < layout.small; i++) {
    // 10 files a folder, 3 levels of folders: src/pN/mN/sN/fN.ts
    const dir = Math.floor(i / 10);
    const rel = `src/p${dir % 23}/m${Math.floor(dir / 23) % 97}/s${Math.floor(dir / 2231)}/f${i}.ts`;
    const size = between(...layout.smallBytes);
    const at = between(0, POOL.length - size);
    smallFiles.push(put(rel, `// file ${i}\n${POOL.slice(at, at + size)}`));
  }
  for (let i = 0; i < layout.large; i++) put(`assets/a${i % 4}/large${i}.bin`, randomBytes(between(1, 8) * 1024 * 1024));
  for (let i = 0; i < layout.nodeModules; i++) put(`node_modules/pkg${i % 60}/lib/m${i}.js`, `module.exports = ${i};\n${POOL.slice(i, i + 2000)}`);
  for (let i = 0; i < layout.build; i++) put(`build/out/o${i % 20}/b${i}.js`, POOL.slice(i * 3, i * 3 + 4000));
  put('.gitignore', 'build/\n*.log\n');
  return { root, files, smallFiles, bytes, count: files.length };
}

/** A git that reads no user or system configuration, runs no hooks, and keeps its index and objects in `gitDir`. */
export class PrivateGit {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    private readonly gitDir: string,
    private readonly workTree: string,
  ) {
    this.env = {
      PATH: process.env.PATH,
      HOME: path.dirname(gitDir),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_INDEX_FILE: path.join(gitDir, 'private-index'),
      GIT_OPTIONAL_LOCKS: '0',
    };
    this.git('init', '--quiet');
    // Like the snapshot's exclude list: node_modules is not recorded (the .gitignore'd build folder is skipped by both).
    fs.mkdirSync(path.join(gitDir, 'info'), { recursive: true });
    fs.writeFileSync(path.join(gitDir, 'info', 'exclude'), 'node_modules/\n');
  }

  /** `add -A` then `write-tree`: the tree id of the work tree as it is. */
  snapshot(): string {
    this.git('add', '-A');
    return this.git('write-tree').trim();
  }

  private git(...args: string[]): string {
    const base = ['-c', 'core.hooksPath=/dev/null', `--git-dir=${this.gitDir}`, `--work-tree=${this.workTree}`];
    return execFileSync('git', [...base, ...args], { env: this.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  }
}

export function du(dir: string): number {
  let total = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else total += fs.lstatSync(p).blocks * 512;
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return total;
}
