import { execFile } from 'node:child_process';
import * as path from 'node:path';

/**
 * The version of a file in git's HEAD, the last source of a baseline. Read-only: `git show` of a blob, with optional
 * locks off, so the user's index, refs and working tree are never touched. Undefined when there is no git, no
 * repository, or the file is not in HEAD. Plain Node.
 */
export function gitHeadVersion(file: string, maxBytes = 50 * 1024 * 1024, timeoutMs = 5000): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', path.dirname(file), '--no-pager', 'show', '--no-textconv', `HEAD:./${path.basename(file)}`],
      {
        encoding: 'buffer',
        maxBuffer: maxBytes,
        timeout: timeoutMs,
        windowsHide: true,
        // No pager, no prompts, no lock on the index (git status would take one; show does not, but be sure).
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' },
      },
      (error, stdout) => resolve(error ? undefined : (stdout as Buffer)),
    );
  });
}
