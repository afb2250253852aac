// `npm run bench [-- name…]`: builds and runs the benchmarks, each printing its figures and side-by-side ratios.
// No benchmark asserts a time: these machines are noisy; the numbers are for people to read.
// Benches in `slow` (the soak: ~40 s idle, minutes on a busy machine; the real-window stream bench: minutes) run only
// when named: `npm run bench -- soak`, `flock /tmp/howdah-vscode.lock npm run bench -- stream`.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outdir = join(root, 'out', 'test', 'bench');
/** name → source; a `.ts` is bundled for Node first, a `.mjs` runs as it is. */
const benches = {
  protocol: 'test/bench/protocol.ts',
  webview: 'test/bench/webview.mjs',
  terminals: 'test/bench/terminals.ts',
  edits: 'test/bench/edits.ts',
  fuzz: 'test/bench/fuzz.ts',
  fuzzy: 'test/bench/fuzzy.ts',
  snapshot: 'test/bench/snapshot.ts',
  editorContext: 'test/bench/editorContext.ts',
  soak: 'test/bench/soak.mjs',
  stream: 'test/bench/stream.mjs',
};
/** Worker-thread scripts a bench starts from beside its bundle: bench → { output name → source }. */
const workers = { snapshot: { 'snapshotWalker.js': 'src/edits/snapshot/walkWorker.ts' }, editorContext: { 'editorContextServer.js': 'src/editorContext/server/main.ts' } };
/** Not run by a plain `npm run bench`: only when named. */
const slow = new Set(['soak', 'stream']);
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const selected = Object.entries(benches).filter(([name, file]) => (wanted.length ? wanted.includes(name) : !slow.has(name)) && existsSync(join(root, file)));
let failed = 0;
for (const [name, file] of selected) {
  let script = join(root, file);
  if (file.endsWith('.ts')) {
    script = join(outdir, `${name}.js`);
    await build({ entryPoints: [join(root, file)], outfile: script, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
    for (const [out, source] of Object.entries(workers[name] ?? {})) {
      await build({ entryPoints: [join(root, source)], outfile: join(outdir, out), bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
    }
  }
  console.log(`\n=== bench: ${name}`);
  const result = spawnSync(process.execPath, ['--expose-gc', script], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
