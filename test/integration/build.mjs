// Compiles the integration suite with esbuild: one CommonJS bundle per file into out/test/integration/,
// `vscode` (given by the extension host) and `mocha` (required at run time from node_modules) external.
import esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../harness/config.mjs';

export const OUT = path.join(REPO, 'out', 'test', 'integration');
const SRC = path.join(REPO, 'test', 'integration');

/** Builds index.js and every *.test.js; returns the path of index.js. */
export async function compileIntegrationTests() {
  fs.rmSync(OUT, { recursive: true, force: true });
  const entryPoints = fs.readdirSync(SRC).filter(f => f === 'index.ts' || f.endsWith('.test.ts')).map(f => path.join(SRC, f));
  await esbuild.build({
    entryPoints, outdir: OUT, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    external: ['vscode', 'mocha'], sourcemap: 'inline', logLevel: 'warning',
  });
  return path.join(OUT, 'index.js');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await compileIntegrationTests());
}
