import * as l10n from '@vscode/l10n';
/**
 * Why an install failed, in words that name the cause, so the notification says what to do: the network, a checksum
 * that does not match, a full disk, a missing npm or uv (with how to get it), a platform the agent is not built for,
 * the user cancelling, or the package manager's own failure.
 */
export type InstallFailure = 'network' | 'checksum' | 'disk' | 'missing-tool' | 'platform' | 'cancelled' | 'archive' | 'package-manager';

export class InstallError extends Error {
  constructor(
    readonly failure: InstallFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'InstallError';
  }
}

export const UV_HINT = l10n.t(
  'Install uv (https://docs.astral.sh/uv/getting-started/installation/): `curl -LsSf https://astral.sh/uv/install.sh | sh` on macOS and Linux, `powershell -ExecutionPolicy ByPass -c "irm https://astral.sh/uv/install.ps1 | iex"` on Windows, or `brew install uv` / `pipx install uv`; then restart VS Code so it sees uv on PATH.',
);

export const NPM_HINT = l10n.t('Install Node.js (which includes npm) from https://nodejs.org, then restart VS Code so it sees npm on PATH.');

/** The Node error codes that mean the disk is full or not writable, said as such. */
export function diskProblem(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ENOSPC') return l10n.t('the disk is full');
  if (code === 'EDQUOT') return l10n.t('the disk quota is used up');
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return l10n.t('Howdah may not write to its storage folder');
  return undefined;
}

export const cancelled = () => new InstallError('cancelled', l10n.t('The install was cancelled; nothing was installed.'));
