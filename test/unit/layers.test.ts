import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './support/fakeAgent';

/** Every module reachable from the given files (src/acp, src/session, src/edits/snapshot, webview, src/shared), following relative imports, with what it imports. */
function importGraph(entries: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (graph.has(file)) continue;
    const source = fs.readFileSync(file, 'utf8');
    const specifiers = [
      ...source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm),
    ].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
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

const isInside = (file: string, dir: string): boolean => file.startsWith(dir + path.sep);
const isNodeBuiltin = (spec: string): boolean => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]);

/**
 * The imports, in the files under `home` that `files` reach, that leave `home` for anything but the `allowed` folders
 * (relative imports), or name `vscode` or a Node built-in: "file → specifier". Other packages (zod, markdown-it) pass.
 */
function importsLeaving(files: string[], home: string, allowed: string[]): string[] {
  return [...importGraph(files)]
    .filter(([file]) => isInside(file, home))
    .flatMap(([file, specs]) =>
      specs
        .filter((spec) => {
          if (!spec.startsWith('.')) return spec === 'vscode' || isNodeBuiltin(spec);
          const target = path.resolve(path.dirname(file), spec);
          return ![home, ...allowed].some((dir) => isInside(target, dir));
        })
        .map((spec) => `${path.relative(repoRoot, file)} → ${spec}`),
    );
}

/** Import cycles among `files` (through relative imports, `import type` included), each as "a → b → a". */
function importCycles(files: string[]): string[] {
  const graph = importGraph(files);
  const resolved = (file: string) =>
    (graph.get(file) ?? [])
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.resolve(path.dirname(file), spec))
      .map((base) => [`${base}.ts`, path.join(base, 'index.ts')].find((f) => graph.has(f)))
      .filter((f): f is string => !!f);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of resolved(file)) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => path.relative(repoRoot, f)).join(' → '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

const webviewDir = path.join(repoRoot, 'webview');
const sharedDir = path.join(repoRoot, 'src', 'shared');

describe('layers', () => {
  for (const layer of ['acp', 'session', 'edits/snapshot', 'editorContext/server']) {
    it(`src/${layer} reaches no vscode import, directly or through what it imports`, () => {
      const graph = importGraph(sourcesUnder(path.join(repoRoot, 'src', ...layer.split('/'))));
      assert.ok(graph.size > 3, 'the graph was walked');
      const offenders = [...graph].filter(([, specs]) => specs.includes('vscode')).map(([file]) => path.relative(repoRoot, file));
      assert.deepEqual(offenders, []);
    });
  }

  it('the editor context\'s tools, caps, channel and handler reach no vscode import (only its adapter does)', () => {
    const dir = path.join(repoRoot, 'src', 'editorContext');
    const pure = ['tools', 'wire', 'format', 'editorPort', 'toolHandler', 'channel'].map((f) => path.join(dir, `${f}.ts`));
    const graph = importGraph(pure);
    assert.ok(pure.every((f) => graph.has(f)));
    assert.deepEqual([...graph].filter(([, specs]) => specs.includes('vscode')).map(([file]) => path.relative(repoRoot, file)), []);
  });

  it('src/acp does not import from the layers above it', () => {
    const graph = importGraph(sourcesUnder(path.join(repoRoot, 'src', 'acp')));
    const outside = [...graph.keys()].filter((f) => !f.startsWith(path.join(repoRoot, 'src', 'acp') + path.sep));
    assert.deepEqual(outside.map((f) => path.relative(repoRoot, f)), []);
  });

  it('the import scanner sees a vscode import when there is one', () => {
    const probe = path.join(repoRoot, 'src', 'agents', 'agentLog.ts');
    assert.ok(importGraph([probe]).get(probe)?.includes('vscode'));
  });

  it('webview/ imports from outside itself only src/shared/ and packages (never vscode or Node)', () => {
    const files = sourcesUnder(webviewDir);
    assert.ok(files.length > 10, 'the webview was found');
    assert.ok(importGraph(files).has(path.join(sharedDir, 'protocol.ts')), 'the graph reaches src/shared');
    assert.deepEqual(importsLeaving(files, webviewDir, [sharedDir]), []);
  });

  it('src/shared/ imports nothing from src/ outside itself, no vscode and no Node module', () => {
    const files = sourcesUnder(sharedDir);
    assert.ok(files.length >= 4, 'src/shared was found');
    assert.deepEqual(importsLeaving(files, sharedDir, []), []);
    const outside = [...importGraph(files).keys()].filter((f) => !isInside(f, sharedDir));
    assert.deepEqual(outside.map((f) => path.relative(repoRoot, f)), []);
  });

  it('the folder check sees an import that leaves the folder, a vscode import and a Node import', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-layers-'));
    try {
      const home = path.join(dir, 'home');
      const allowed = path.join(dir, 'allowed');
      fs.mkdirSync(home);
      fs.mkdirSync(allowed);
      fs.writeFileSync(path.join(allowed, 'ok.ts'), 'export const ok = 1;\n');
      fs.writeFileSync(path.join(dir, 'elsewhere.ts'), 'export const no = 1;\n');
      const probe = path.join(home, 'probe.ts');
      fs.writeFileSync(
        probe,
        [
          "import { ok } from '../allowed/ok';",
          "import type { no } from '../elsewhere';",
          "import * as vscode from 'vscode';",
          "import { readFileSync } from 'node:fs';",
          "import 'path';",
          "import { z } from 'zod';",
          '',
        ].join('\n'),
      );
      const name = path.relative(repoRoot, probe);
      assert.deepEqual(importsLeaving([probe], home, [allowed]), [
        `${name} → ../elsewhere`,
        `${name} → vscode`,
        `${name} → node:fs`,
        `${name} → path`,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('src/base (the event primitive and scopes) imports nothing but itself; src/session nothing above it', () => {
    const base = path.join(repoRoot, 'src', 'base');
    assert.deepEqual(importsLeaving(sourcesUnder(base), base, []), []);
    const session = path.join(repoRoot, 'src', 'session');
    // src/shared is a leaf (it imports nothing from src): the domain may use its pure models (an elicitation's form).
    assert.deepEqual(importsLeaving(sourcesUnder(session), session, [path.join(repoRoot, 'src', 'acp'), base, sharedDir]), []);
  });

  it('src/ has no import cycles, and the check sees one', () => {
    assert.deepEqual(importCycles(sourcesUnder(path.join(repoRoot, 'src'))), []);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-cycles-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a';\nexport const b = a;\n");
      assert.equal(importCycles([path.join(dir, 'a.ts')]).length, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
