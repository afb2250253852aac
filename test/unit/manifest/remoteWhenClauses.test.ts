import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../support/fakeAgent';

// In a remote window (Remote-SSH, WSL, Dev Containers, Codespaces, code-server) the UI side, where when clauses are
// evaluated, sees the workspace's files as `vscode-remote://…`, while the extension host sees `file:`. These checks keep
// every when clause of the manifest true in both kinds of window.

const root = repoRoot;
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Every `when` (and `enablement`) in the manifest's contributions, with where it is. */
function whenClauses(): { where: string; when: string }[] {
  const out: { where: string; when: string }[] = [];
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${where}[${i}]`));
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if ((k === 'when' || k === 'enablement') && typeof v === 'string') out.push({ where: `${where}.${k}`, when: v });
        else walk(v, `${where}.${k}`);
      }
    }
  };
  walk(manifest.contributes, 'contributes');
  return out;
}

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

describe('when clauses hold in remote windows', () => {
  const clauses = whenClauses();

  it('finds the clauses it checks', () => {
    assert.ok(clauses.length > 20, `only ${clauses.length} when clauses found`);
    assert.ok(clauses.some((c) => /\bresource in\b/.test(c.when)));
  });

  it('a clause that asks for file: resources also takes vscode-remote: ones', () => {
    const bad = clauses.filter((c) => /resourceScheme\s*==\s*file\b/.test(c.when) && !/resourceScheme\s*==\s*vscode-remote\b/.test(c.when));
    assert.deepEqual(bad, [], 'these clauses are false for every workspace file of a remote window');
    const other = clauses.filter((c) => /resource(Path|Dirname)?\s*(==|=~)/.test(c.when));
    assert.deepEqual(other, [], 'a resource compared by its path or URI text differs between local and remote windows');
  });

  it('every context key read by `resource in` is set with Uri objects, through setResourcesContext', () => {
    const keys = new Set(clauses.flatMap((c) => [...c.when.matchAll(/\bresource in ([\w.]+)/g)].map((m) => m[1])));
    assert.ok(keys.has('howdah.reviewedResources') && keys.has('howdah.roundResources'), [...keys].join(', '));
    const sources = sourcesUnder(path.join(root, 'src')).map((f) => ({ file: path.relative(root, f), text: fs.readFileSync(f, 'utf8') }));
    for (const key of keys) {
      const direct = sources.filter((s) => s.text.includes(`'setContext', '${key}'`)).map((s) => s.file);
      assert.deepEqual(direct, [], `${key} is set directly (strings never match a remote editor's resource)`);
      const helper = sources.filter((s) => s.text.includes(`setResourcesContext('${key}'`)).map((s) => s.file);
      assert.equal(helper.length, 1, `${key} is set in exactly one place through setResourcesContext: ${helper.join(', ') || 'none'}`);
    }
    const helper = sources.find((s) => s.file.endsWith(path.join('edits', 'resourceContext.ts')));
    assert.ok(helper, 'src/edits/resourceContext.ts');
    assert.doesNotMatch(helper.text, /toString\(\)/, 'the helper passes the Uri objects themselves');
  });
});
