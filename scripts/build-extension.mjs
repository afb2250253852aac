// `npm run build:extension`: the extension host's bundles (out/extension.js, the snapshot walker, the editor-context
// server). `--watch=forever` rebuilds on change.
//
// Why a script and not the esbuild command line: every file's `import * as vscode from 'vscode'` becomes, in a CommonJS
// bundle, its own `__toESM(require('vscode'))` — a fresh copy of the whole API object (~400 getters) per file, 66 of
// them, all at load time. The plugin sends those imports to scripts/vscodeOnce.mjs, which takes the API once; the
// files share that one namespace (about half the bundle's load time and a third of its heap, measured in Node).
import { build, context } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const once = path.join(root, 'scripts', 'vscodeOnce.mjs');

const vscodeOnce = {
  name: 'vscode-once',
  setup(b) {
    b.onResolve({ filter: /^vscode$/ }, (args) => (args.importer === once ? { path: 'vscode', external: true } : { path: once }));
  },
};

const options = {
  absWorkingDir: root,
  entryPoints: { extension: 'src/extension.ts', snapshotWalker: 'src/edits/snapshot/walkWorker.ts', editorContextServer: 'src/editorContext/server/main.ts' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outdir: 'out',
  minify: true,
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [vscodeOnce],
};

if (process.argv.some((a) => a.startsWith('--watch'))) {
  await (await context(options)).watch();
} else {
  await build(options);
}
