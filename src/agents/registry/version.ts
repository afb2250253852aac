/**
 * Orders registry versions: MAJOR.MINOR.PATCH compared as numbers (so 1.10.0 > 1.9.0), missing parts as 0, a
 * prerelease (`1.2.0-beta.1`) before its release, prerelease identifiers compared the semver way (numbers below
 * words, numbers as numbers). Build metadata (`+…`) is ignored. Negative: a < b.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = split(a);
  const [coreB, preB] = split(b);
  for (let i = 0; i < Math.max(coreA.length, coreB.length); i++) {
    const d = (coreA[i] ?? 0) - (coreB[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (preA === undefined || preB === undefined) return preA === preB ? 0 : preA === undefined ? 1 : -1;
  const [pa, pb] = [preA.split('.'), preB.split('.')];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [x, y] = [pa[i], pb[i]];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny) {
      const d = Number(x) - Number(y);
      if (d !== 0) return Math.sign(d);
    } else if (nx !== ny) return nx ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function split(version: string): [number[], string | undefined] {
  const withoutBuild = version.trim().replace(/^v/i, '').split('+')[0]!;
  const dash = withoutBuild.indexOf('-');
  const core = dash < 0 ? withoutBuild : withoutBuild.slice(0, dash);
  const pre = dash < 0 ? undefined : withoutBuild.slice(dash + 1);
  return [core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre];
}
