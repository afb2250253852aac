import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../support/fakeAgent';

// Every `vscode` API the extension uses must exist in the oldest VS Code that `engines.vscode` claims: VSCodium,
// Cursor, Windsurf and older VS Code installs run on older engines. The names come from the TypeScript compiler over
// src/ (each identifier resolved to its declaration in `@types/vscode`, as `window.showQuickPick` or
// `TextEditor.selection`, so members used through a value's type count too) and are looked up in
// `@types/vscode-oldest`, the types of that version (an aliased dev dependency, pinned).

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const OLDEST_TYPES = path.join(repoRoot, 'node_modules', '@types', 'vscode-oldest');

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path.join(dir, e.name)] : [],
  );
}

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts'],
  // Node's own types are not needed to resolve vscode names, and would double the program.
  types: [],
  strict: true,
  esModuleInterop: true,
  skipLibCheck: true,
  resolveJsonModule: true,
  noEmit: true,
};

const isVscodeTypes = (file: string) => /[\\/]node_modules[\\/]@types[\\/]vscode[\\/]index\.d\.ts$/.test(file);

/** Every name of the `vscode` module src/ refers to ("window.showQuickPick", "Uri.file", "TextEditor.selection"), with a file using it. */
function namesUsed(): Map<string, string> {
  const program = ts.createProgram(sourcesUnder(path.join(repoRoot, 'src')), options);
  const checker = program.getTypeChecker();
  const used = new Map<string, string>();
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || !path.resolve(file.fileName).startsWith(path.join(repoRoot, 'src') + path.sep)) continue;
    // Only files that import from 'vscode' can name its API (asking the checker about every identifier of every file
    // would take a minute).
    if (!file.statements.some((s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === 'vscode')) continue;
    const visit = (node: ts.Node): void => {
      // Where an API name can stand: `a.b`, `A.B` in a type, a type's name, an object literal's key (an options bag),
      // a destructured property.
      const parent = node.parent;
      const named =
        ts.isIdentifier(node) &&
        parent !== undefined &&
        ((ts.isPropertyAccessExpression(parent) && parent.name === node) ||
          ts.isQualifiedName(parent) ||
          ts.isTypeReferenceNode(parent) ||
          ts.isExpressionWithTypeArguments(parent) ||
          (ts.isPropertyAssignment(parent) && parent.name === node) ||
          ts.isShorthandPropertyAssignment(parent) ||
          (ts.isBindingElement(parent) && (parent.propertyName ?? parent.name) === node));
      if (named) {
        let symbol = checker.getSymbolAtLocation(node);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        if (symbol?.declarations?.some((d) => isVscodeTypes(d.getSourceFile().fileName))) {
          const name = checker.getFullyQualifiedName(symbol).replace(/^"vscode"\.?/, '');
          // The module itself, type parameters, and members of anonymous object types (`__type.x`) have no name of their own.
          if (name && !name.includes('__') && !(symbol.flags & ts.SymbolFlags.TypeParameter)) {
            if (!used.has(name)) used.set(name, path.relative(repoRoot, file.fileName));
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return used;
}

/** A lookup of dotted names in the `vscode` module of the given declaration file. */
function declaredIn(dts: string): (name: string) => boolean {
  const program = ts.createProgram([dts], { ...options, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(dts)!;
  const module = source.statements.find((s): s is ts.ModuleDeclaration => ts.isModuleDeclaration(s) && s.name.text === 'vscode');
  assert.ok(module, `${dts} declares the module "vscode"`);
  const root = checker.getSymbolAtLocation(module.name)!;
  const child = (symbol: ts.Symbol, name: string): ts.Symbol | undefined => {
    const key = ts.escapeLeadingUnderscores(name);
    return symbol.exports?.get(key) ?? symbol.members?.get(key) ?? (symbol.flags & ts.SymbolFlags.Module ? checker.getExportsOfModule(symbol).find((s) => s.name === name) : undefined);
  };
  // Declared outside the module, as globals (`Thenable`).
  const globals = new Set(source.statements.flatMap((s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isClassDeclaration(s) || ts.isFunctionDeclaration(s)) && s.name ? [s.name.text] : []));
  return (name) => {
    if (globals.has(name)) return true;
    let symbol: ts.Symbol | undefined = root;
    for (const part of name.split('.')) {
      symbol = symbol && child(symbol, part);
      if (!symbol) return false;
    }
    return true;
  };
}

describe('every vscode API used exists in the oldest VS Code engines.vscode claims', function () {
  this.timeout(120000);

  it('@types/vscode-oldest is the version engines.vscode names', () => {
    const claimed = /^\^?(\d+\.\d+)\.\d+$/.exec(manifest.engines.vscode)?.[1];
    assert.ok(claimed, `engines.vscode ${manifest.engines.vscode} names a version`);
    const oldest = JSON.parse(fs.readFileSync(path.join(OLDEST_TYPES, 'package.json'), 'utf8')).version as string;
    assert.equal(oldest.split('.').slice(0, 2).join('.'), claimed, `@types/vscode-oldest ${oldest} vs engines.vscode ${manifest.engines.vscode}`);
    assert.equal(manifest.devDependencies['@types/vscode-oldest'], `npm:@types/vscode@${claimed}.0`, 'pinned, not a range');
  });

  it('finds each name of src/ in that version', () => {
    const used = namesUsed();
    // What the check stands on: the names are really collected, through values and types alike.
    for (const name of ['window.showQuickPick', 'commands.registerCommand', 'Uri.file', 'EventEmitter', 'TextEditor.selection', 'ExtensionMode.Test']) {
      assert.ok(used.has(name), `${name} is among the names collected (${used.size} in all)`);
    }
    assert.ok(used.size > 200, `${used.size} names`);
    const exists = declaredIn(path.join(OLDEST_TYPES, 'index.d.ts'));
    // And the lookup can say no: an API newer than 1.90, and one that never existed.
    assert.equal(exists('lm.registerTool'), false);
    assert.equal(exists('window.showQuickPickPlease'), false);
    assert.equal(exists('chat.createChatParticipant'), true);
    assert.equal(exists('Thenable'), true);
    const missing = [...used].filter(([name]) => !exists(name)).map(([name, file]) => `${name} (${file})`);
    assert.deepEqual(missing, [], `not in @types/vscode ${manifest.engines.vscode}: raise engines.vscode or do without them`);
  });
});
