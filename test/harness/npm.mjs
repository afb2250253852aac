// Running the project's own npm scripts from the harness, output shown as it comes.
import { spawnSync } from 'node:child_process';
import { REPO } from './config.mjs';

/** `npm run <script> [-- args]` in the repo; throws when it fails. */
export function npmRun(script, args = []) {
  const r = spawnSync('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], { cwd: REPO, stdio: 'inherit' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`npm run ${script} failed (exit ${r.status ?? r.signal})`);
}
