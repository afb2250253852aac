import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './support/fakeAgent';

/** Every module reachable from the given files (src/acp, src/session, src/edits/snapshot), following relative imports, with what it imports. */
function importGraph(entries: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (graph.has(file)) continue;
    const source = fs.readFileSync(file, 'utf8');
    const specifiers = [...source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
      (m) => m[1] ?? m[2] ?? m[3],
    );
    graph.set(file, specifiers);
    for (const spec of specifiers) {
      if (!spec.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), spec);
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
      if (target) queue.push(target);
    }
  }
  return graph;
}

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

describe('layers', () => {
  for (const layer of ['acp', 'session', 'edits/snapshot']) {
    it(`src/${layer} reaches no vscode import, directly or through what it imports`, () => {
      const graph = importGraph(sourcesUnder(path.join(repoRoot, 'src', ...layer.split('/'))));
      assert.ok(graph.size > 3, 'the graph was walked');
      const offenders = [...graph].filter(([, specs]) => specs.includes('vscode')).map(([file]) => path.relative(repoRoot, file));
      assert.deepEqual(offenders, []);
    });
  }

  it('src/acp does not import from the layers above it', () => {
    const graph = importGraph(sourcesUnder(path.join(repoRoot, 'src', 'acp')));
    const outside = [...graph.keys()].filter((f) => !f.startsWith(path.join(repoRoot, 'src', 'acp') + path.sep));
    assert.deepEqual(outside.map((f) => path.relative(repoRoot, f)), []);
  });

  it('the import scanner sees a vscode import when there is one', () => {
    const probe = path.join(repoRoot, 'src', 'agents', 'agentLog.ts');
    assert.ok(importGraph([probe]).get(probe)?.includes('vscode'));
  });
});
