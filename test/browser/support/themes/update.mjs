// Copies the theme variables the last e2e run took from code-server's webview (test-results/e2e/themes/*.css) here,
// for the browser tier's theme sweep. Run after `HOWDAH_GREP="four themes" npm run test:e2e`.
import { copyFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const from = fileURLToPath(new URL('../../../../test-results/e2e/themes/', import.meta.url));
for (const file of ['light-plus', 'dark-plus', 'high-contrast-dark', 'high-contrast-light']) {
  if (!existsSync(`${from}${file}.css`)) throw new Error(`${from}${file}.css missing: run the e2e tier's theme test first`);
  copyFileSync(`${from}${file}.css`, `${here}${file}.css`);
  console.log(`${file}.css updated`);
}
