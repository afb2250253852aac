import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../src/edits/snapshot';

describe('snapshot settings', () => {
  const config = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')).contributes.configuration.properties;

  it("howdah.snapshot.exclude's default is the module's list, so the setting shows what is really skipped", () => {
    assert.deepEqual(config['howdah.snapshot.exclude'].default, [...DEFAULT_SNAPSHOT_EXCLUDES]);
  });

  it('every snapshot bound is settable, with defaults that keep a 60 MB file out and a big repository in', () => {
    assert.equal(config['howdah.snapshot.maxFileSize'].default, 16);
    assert.ok(config['howdah.snapshot.maxTotalSize'].default >= 1024);
    assert.equal(config['howdah.snapshot.respectGitignore'].default, true);
    assert.equal(config['howdah.snapshot.enabled'].default, true);
  });
});
