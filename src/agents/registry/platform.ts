import type { Platform } from './registryFormat';

/**
 * The registry's platform name for where the extension host runs (in a remote window: the remote machine, which is
 * where the agent runs). Undefined for a combination the registry has no name for (32-bit, FreeBSD, …).
 */
export function platformKey(platform: NodeJS.Platform, arch: string): Platform | undefined {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
  const cpu = arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : undefined;
  return os && cpu ? (`${os}-${cpu}` as Platform) : undefined;
}

export function currentPlatform(): Platform | undefined {
  return platformKey(process.platform, process.arch);
}
