// `npm run package`: build, then package the extension as howdah-<version>.vsix with vsce (offline),
// print its size, and fail when it reaches 1 MB. Prints the .vsix path as its last line.
// HOWDAH_SKIP_BUILD=1 packages what is in out/ already.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LIMIT = 1_000_000;

function run(command, args) {
  // stdin closed: a vsce question (missing LICENSE, …) fails at once instead of waiting for an answer
  const r = spawnSync(command, args, { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** Builds and packages; returns the .vsix path. */
export function packageExtension() {
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  const out = path.join(REPO, `howdah-${version}.vsix`);
  if (!process.env.HOWDAH_SKIP_BUILD) run('npm', ['run', '--silent', 'build']);
  fs.rmSync(out, { force: true });
  // The README's screenshots are relative (docs/screenshots/): with no `repository` in package.json vsce cannot make
  // them absolute and refuses; left relative they show wherever the README is read from the repository.
  run(path.join(REPO, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--skip-license', '--no-rewrite-relative-links', '--out', out]);
  const size = fs.statSync(out).size;
  console.log(`${path.basename(out)}: ${(size / 1024).toFixed(1)} KB (limit ${LIMIT / 1000} KB)`);
  if (size >= LIMIT) throw new Error(`${path.basename(out)} is ${size} bytes, at or over the 1 MB limit: check .vscodeignore`);
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(packageExtension());
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
