// Rewrites hard-coded user-facing strings into translator calls (`vscode.l10n.t` / `l10n.t`), then regenerates the
// English bundle. Usage: node test/tools/l10n-wrap.mjs [--check] [file or folder…] (default: src webview).
// --check only lists what it would wrap. Review the diff: a message built from pieces may read better rephrased.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const check = args.includes('--check');
const targets = args.filter((a) => !a.startsWith('--'));
const outfile = join(root, 'out', 'tools', 'l10nRewrite.mjs');
await build({ entryPoints: [join(root, 'test/unit/support/l10nRewrite.ts')], outfile, bundle: true, platform: 'node', format: 'esm', external: ['typescript'], logLevel: 'warning' });
const { rewriteSource } = await import(pathToFileURL(outfile).href);

const files = (path) => (statSync(path).isDirectory() ? readdirSync(path).flatMap((n) => files(join(path, n))) : /\.ts$/.test(path) && !/\.d\.ts$/.test(path) ? [path] : []);
let total = 0;
for (const file of (targets.length ? targets : ['src', 'webview']).flatMap((t) => files(join(root, t)))) {
  const before = readFileSync(file, 'utf8');
  const { text, wrapped, skipped } = rewriteSource(file, before);
  for (const f of skipped) console.log(`${relative(root, f.file)}:${f.line}: not rewritten (braces in the text): ${f.source}`);
  if (wrapped === 0) continue;
  total += wrapped;
  console.log(`${relative(root, file)}: ${wrapped}`);
  if (!check) writeFileSync(file, text);
}
console.log(`${check ? 'would wrap' : 'wrapped'} ${total} strings`);
if (!check && total > 0) execFileSync('npx', ['--no-install', '@vscode/l10n-dev', 'export', '--outDir', 'l10n', 'src', 'webview'], { cwd: root, stdio: 'inherit' });
