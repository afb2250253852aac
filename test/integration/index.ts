// Entry point the extension host loads as extensionTestsPath: runs every compiled *.test.js here with mocha.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
// bundled in by esbuild; it requires `mocha` at run time, like this file
import HowdahReporter from '../harness/mocha-reporter.cjs';

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 30000,
    reporter: HowdahReporter,
    grep: process.env.HOWDAH_GREP || undefined,
  });
  for (const file of fs.readdirSync(__dirname).filter(f => f.endsWith('.test.js')).sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    mocha.run(failures => (failures ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}
