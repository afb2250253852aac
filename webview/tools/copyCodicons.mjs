// Copies the codicon font and stylesheet from node_modules into media/codicons/, which ships in the .vsix (the
// package excludes node_modules). Run after upgrading @vscode/codicons: node webview/tools/copyCodicons.mjs
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const from = join(root, 'node_modules', '@vscode', 'codicons');
const to = join(root, 'media', 'codicons');
mkdirSync(to, { recursive: true });
for (const [source, target] of [
  ['dist/codicon.css', 'codicon.css'],
  ['dist/codicon.ttf', 'codicon.ttf'],
  ['LICENSE', 'LICENSE'],
]) {
  copyFileSync(join(from, source), join(to, target));
}
console.log(`codicons copied to ${to}`);
