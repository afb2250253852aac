// Moves the user-facing strings of package.json (command titles, categories, view names, setting descriptions,
// walkthrough text…) into package.nls.json as `%key%` references, leaving the rest of the file as it is.
// Usage: node test/tools/l10n-manifest.mjs [--check]. Keys come from ids (command, view, setting, step), so a
// string a branch adds gets the same key wherever it lands.
import { build } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outfile = join(root, 'out', 'tools', 'manifestStrings.mjs');
await build({ entryPoints: [join(root, 'test/unit/support/manifestStrings.ts')], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning' });
const { externalize } = await import(pathToFileURL(outfile).href);

const manifestFile = join(root, 'package.json');
const nlsFile = join(root, 'package.nls.json');
const nls = existsSync(nlsFile) ? JSON.parse(readFileSync(nlsFile, 'utf8')) : {};
const { text, added, conflicts } = externalize(readFileSync(manifestFile, 'utf8'), nls);
for (const c of conflicts) console.log(`not moved, the key already holds other text: ${c}`);
const keys = Object.keys(added);
console.log(`${process.argv.includes('--check') ? 'would move' : 'moved'} ${keys.length} manifest strings`);
if (process.argv.includes('--check') || keys.length === 0) process.exit(conflicts.length ? 1 : 0);
// Added in the manifest's order (externalize collects them last to first).
writeFileSync(nlsFile, `${JSON.stringify({ ...nls, ...Object.fromEntries(keys.reverse().map((k) => [k, added[k]])) }, null, 2)}\n`);
writeFileSync(manifestFile, text);
