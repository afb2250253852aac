// Headless Debian Chromium through playwright-core, with a private profile inside the run folder
// (so a Chromium left behind is found by the run's process scan) and numbered screenshots.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CHROMIUM, REPO } from './config.mjs';
import { ensureSystemPackages } from './provision.mjs';
import { log } from './timing.mjs';

const { chromium } = createRequire(path.join(REPO, 'package.json'))('playwright-core');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** Launches Chromium; returns { context, page, close }. */
export async function launchBrowser(runDir, { width = 1440, height = 900 } = {}) {
  if (!process.env.HOWDAH_CHROMIUM) ensureSystemPackages(['chromium']);
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (apt-get install chromium)`);
  const profile = path.join(runDir, `chromium-${Date.now().toString(36)}`);
  fs.mkdirSync(profile, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, viewport: { width, height }, args: ARGS,
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', e => log('page error:', e.message));
  return {
    context, page,
    close: async () => {
      await context.close().catch(() => {});
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Screenshots into `dir` as NN-name.png, printing each path. */
export function screenshotter(page, dir) {
  fs.mkdirSync(dir, { recursive: true });
  let n = 0;
  const taken = [];
  const shot = async name => {
    const file = path.join(dir, `${String(++n).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file });
    taken.push(file);
    console.log(`    screenshot: ${path.relative(REPO, file)}`);
    return file;
  };
  shot.taken = taken;
  return shot;
}
