import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../support/fakeAgent';

/** The README's settings table: every `howdah.*` setting named in the first column of its rows. */
function readmeSettings(readme: string): string[] {
  const names: string[] = [];
  for (const line of readme.split('\n')) {
    const first = /^\|\s*([^|]+?)\s*\|/.exec(line)?.[1];
    if (first) for (const m of first.matchAll(/`(howdah\.[\w.]+)`/g)) names.push(m[1]);
  }
  return names;
}

function manifestSettings(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const configuration = manifest.contributes.configuration;
  const groups: { properties: Record<string, unknown> }[] = Array.isArray(configuration) ? configuration : [configuration];
  return groups.flatMap((g) => Object.keys(g.properties));
}

describe('README as a product page', () => {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

  it('lists every setting of package.json in its settings table, and no setting that does not exist', () => {
    const inManifest = manifestSettings();
    const inReadme = readmeSettings(readme);
    assert.ok(inManifest.length > 10, 'the manifest was read');
    assert.deepEqual(inManifest.filter((s) => !inReadme.includes(s)), [], 'settings missing from the README table');
    assert.deepEqual(inReadme.filter((s) => !inManifest.includes(s)), [], 'README rows naming no setting');
  });

  it('keeps its two commands, its dependency list and a line for every dependency', () => {
    assert.ok(readme.includes('npm ci && npm run demo'));
    assert.ok(readme.includes('npm ci && npm test'));
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    const deps = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
    const list = readme.slice(readme.indexOf('## Dependencies'));
    assert.deepEqual(deps.filter((d) => !list.includes(`**${d}**`)), [], 'dependencies without a line in the README');
  });

  it('shows only pictures that are in the repository', () => {
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(images.length >= 4, 'the four theme screenshots');
    assert.deepEqual(images.filter((src) => !fs.existsSync(path.join(repoRoot, src))), []);
  });
});
