import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { cancelled, diskProblem, InstallError } from './installErrors';
import * as l10n from '@vscode/l10n';

export interface DownloadProgress {
  readonly received: number;
  /** From Content-Length; undefined when the server does not say. */
  readonly total?: number;
}

/**
 * Downloads `url` into `file`, hashing as it goes. With `sha256`, a download that does not match is deleted and
 * refused. Cancelling (the signal) stops the transfer and deletes the partial file. Errors say which cause it was.
 */
export async function download(url: string, file: string, options: { signal: AbortSignal; sha256?: string; onProgress?: (p: DownloadProgress) => void }): Promise<{ sha256: string; bytes: number }> {
  const { signal } = options;
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
  } catch (error) {
    if (signal.aborted) throw cancelled();
    throw new InstallError('network', l10n.t('Could not download {0}: {1}.', url, networkReason(error)), { cause: error });
  }
  if (!response.ok || !response.body) throw new InstallError('network', l10n.t('Could not download {0}: the server answered {1} {2}.', url, response.status, response.statusText));
  const total = Number(response.headers.get('content-length')) || undefined;
  const hash = createHash('sha256');
  let received = 0;
  const out = fs.createWriteStream(file);
  const written = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  try {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      hash.update(value);
      received += value.byteLength;
      if (!out.write(value)) await new Promise<void>((resolve, reject) => { out.once('drain', resolve); out.once('error', reject); });
      options.onProgress?.({ received, total });
    }
    out.end();
    await written;
  } catch (error) {
    out.destroy();
    await fs.promises.rm(file, { force: true });
    if (signal.aborted) throw cancelled();
    const disk = diskProblem(error);
    if (disk) throw new InstallError('disk', l10n.t('Could not save the download: {0}.', disk), { cause: error });
    throw new InstallError('network', l10n.t('The download of {0} broke off: {1}.', url, networkReason(error)), { cause: error });
  }
  const sha256 = hash.digest('hex');
  if (options.sha256 && sha256 !== options.sha256.toLowerCase()) {
    await fs.promises.rm(file, { force: true });
    throw new InstallError('checksum', l10n.t('The download of {0} does not match the registry\'s checksum (expected sha256 {1}, got {2}); it was deleted and nothing was installed.', url, options.sha256, sha256));
  }
  return { sha256, bytes: received };
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const code = cause?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return l10n.t('the server name could not be resolved (offline?)');
  if (code === 'ECONNREFUSED') return l10n.t('the connection was refused');
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return l10n.t('the connection timed out');
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
