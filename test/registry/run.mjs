// `npm run test:registry`: bundles test/registry/matrix.ts for plain Node and runs it (see there).
// HOWDAH_GREP=<regex> probes only the agents whose registry id matches.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const outfile = path.join(here, '..', '..', 'out', 'test', 'registry', 'matrix.js');
await build({ entryPoints: [path.join(here, 'matrix.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', sourcemap: 'inline', logLevel: 'warning' });
const run = spawnSync(process.execPath, ['--enable-source-maps', outfile], { stdio: 'inherit' });
process.exit(run.status ?? 1);
