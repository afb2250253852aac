// Bundles every test/unit/**/*.test.ts for plain Node. `vscode` is deliberately not external: a unit test that
// reaches it (directly or through src/acp, src/session) fails to build, which keeps the lower layers free of it.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
const outdir = join(root, 'out', 'test', 'unit');

function tests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tests(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

rmSync(outdir, { recursive: true, force: true });
const entryPoints = tests(here);
await build({
  entryPoints,
  outdir,
  outbase: here,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  // Loaded from node_modules as they are: the compiler for the l10n scan, l10n-dev (its parser's .wasm sits beside
  // it) and happy-dom for the pseudo-locale page.
  external: ['mocha', 'playwright-core', 'typescript', '@vscode/l10n-dev', 'happy-dom'],
  logLevel: 'warning',
});
// The turn snapshot's worker thread, which tests start from this file (the extension's is out/snapshotWalker.js).
await build({
  entryPoints: [join(root, 'src', 'edits', 'snapshot', 'walkWorker.ts')],
  outfile: join(outdir, 'snapshotWalker.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
});
// The editor-context MCP server script, which tests start as an agent would (the extension's is out/editorContextServer.js).
await build({
  entryPoints: [join(root, 'src', 'editorContext', 'server', 'main.ts')],
  outfile: join(outdir, 'editorContextServer.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
console.log(`unit: built ${entryPoints.length} test files, the snapshot worker and the editor-context server into ${relative(root, outdir)}`);
