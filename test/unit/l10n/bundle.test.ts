import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import { externalize, manifestPlaceholders } from '../support/manifestStrings';
import { repoRoot } from '../support/fakeAgent';

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path.join(dir, e.name)] : [],
  );
}

const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');
const manifestText = read('package.json');
const manifest = JSON.parse(manifestText) as { l10n?: string };
const nls = JSON.parse(read('package.nls.json')) as Record<string, string>;

describe('the English bundles', () => {
  it('l10n/bundle.l10n.json is what @vscode/l10n-dev exports from src/ and webview/ now (run the export after changing a message)', async function () {
    this.timeout(180_000);
    const files = [...sourcesUnder(path.join(repoRoot, 'src')), ...sourcesUnder(path.join(repoRoot, 'webview'))].map((f) => ({ contents: fs.readFileSync(f, 'utf8'), extension: '.ts' }));
    const exported = await getL10nJson(files);
    const checkedIn = JSON.parse(read('l10n/bundle.l10n.json')) as Record<string, string>;
    const missing = Object.keys(exported).filter((k) => !(k in checkedIn));
    const stale = Object.keys(checkedIn).filter((k) => !(k in exported));
    assert.deepEqual({ missing, stale }, { missing: [], stale: [] }, 'npx @vscode/l10n-dev export --outDir l10n src webview');
    // English is complete: every message is its own English text, so no key falls back at run time.
    assert.deepEqual(Object.entries(checkedIn).filter(([k, v]) => k !== v), []);
  });

  it('package.json points VS Code at the bundle folder', () => {
    assert.equal(manifest.l10n, './l10n');
    assert.ok(fs.existsSync(path.join(repoRoot, 'l10n', 'bundle.l10n.json')));
  });

  it('every user-facing manifest string is a %key% (node test/tools/l10n-manifest.mjs moves new ones)', () => {
    const { added, conflicts } = externalize(manifestText, nls);
    assert.deepEqual({ literal: Object.values(added), conflicts }, { literal: [], conflicts: [] });
  });

  it('every %key% of package.json has its English text in package.nls.json, and package.nls.json holds no unused key', () => {
    const used = new Set(manifestPlaceholders(manifestText));
    assert.ok(used.size > 50, `${used.size} keys`);
    assert.deepEqual([...used].filter((k) => typeof nls[k] !== 'string' || nls[k].trim() === ''), []);
    assert.deepEqual(Object.keys(nls).filter((k) => !used.has(k)), []);
  });

  it('the .vsix carries the bundles', () => {
    const ignore = read('.vscodeignore');
    assert.match(ignore, /^!package\.nls\.json$/m);
    assert.match(ignore, /^!l10n\/\*\.json$/m);
  });

  it('finds a literal manifest string and gives it an id-based key', () => {
    const sample = JSON.stringify({ contributes: { commands: [{ command: 'x.go', title: 'Go', category: 'X' }], configuration: { properties: { 'x.mode': { enum: ['a', 'b'], enumDescriptions: ['Alpha', 'Beta'], description: 'Mode' } } } } }, null, 2);
    const { text, added } = externalize(sample, {});
    assert.deepEqual(added, { 'x.go.title': 'Go', 'category.x': 'X', 'x.mode.enumDescriptions.a': 'Alpha', 'x.mode.enumDescriptions.b': 'Beta', 'x.mode.description': 'Mode' });
    assert.match(text, /"title": "%x\.go\.title%"/);
    assert.equal(JSON.parse(text).contributes.configuration.properties['x.mode'].enum[0], 'a', 'values that are not text stay');
  });
});
