import { strict as assert } from 'node:assert';
import { workspaceRelative } from '../../../src/shared/workspacePaths';

describe('panel: paths relative to the workspace', () => {
  const one = [{ name: 'greeter', path: '/tmp/ws/greeter' }];

  it('shortens a path inside the folder, and leaves others whole', () => {
    assert.equal(workspaceRelative('/tmp/ws/greeter/src/greet.js', one), 'src/greet.js');
    assert.equal(workspaceRelative('/tmp/ws/greeter/notes.md', [{ name: 'greeter', path: '/tmp/ws/greeter/' }]), 'notes.md');
    assert.equal(workspaceRelative('/tmp/ws/greeterx/a.js', one), undefined, 'a sibling with the same prefix is outside');
    assert.equal(workspaceRelative('/tmp/ws/greeter', one), undefined, 'the folder itself');
    assert.equal(workspaceRelative('/etc/passwd', one), undefined);
    assert.equal(workspaceRelative('src/greet.js', one), undefined, 'already relative: shown as sent');
    assert.equal(workspaceRelative('/tmp/ws/greeter/a.js', []), undefined, 'no folder open');
  });

  it('does not shorten paths whose segments could lead out of the folder', () => {
    assert.equal(workspaceRelative('/tmp/ws/greeter/../../etc/passwd', one), undefined);
    assert.equal(workspaceRelative('/tmp/ws/greeter/./a.js', one), undefined);
    assert.equal(workspaceRelative('/tmp/ws/greeter//a.js', one), undefined);
    assert.equal(workspaceRelative('/tmp/ws/greeter/src/', one), undefined);
  });

  it('keeps hidden characters in the part it shows (the caller reveals them)', () => {
    assert.equal(workspaceRelative('/tmp/ws/greeter/src/a\u202E.js', one), 'src/a\u202E.js');
    assert.equal(workspaceRelative('/tmp/ws/greeter\u200B/a.js', one), undefined, 'a look-alike folder is not the folder');
  });

  it('names the folder first in a multi-root workspace, and picks the innermost folder', () => {
    const two = [{ name: 'app', path: '/w/app' }, { name: 'lib', path: '/w/app/lib' }];
    assert.equal(workspaceRelative('/w/app/src/a.ts', two), 'app/src/a.ts');
    assert.equal(workspaceRelative('/w/app/lib/b.ts', two), 'lib/b.ts');
  });

  it('compares Windows paths without regard to case or separator, showing the path as sent', () => {
    const win = [{ name: 'proj', path: 'C:\\Users\\me\\proj' }];
    assert.equal(workspaceRelative('c:\\users\\ME\\proj\\src\\a.ts', win), 'src\\a.ts');
    assert.equal(workspaceRelative('C:/Users/me/proj/src/a.ts', win), 'src/a.ts');
    assert.equal(workspaceRelative('/Users/me/proj/src/a.ts', win), undefined);
    assert.equal(workspaceRelative('C:\\Users\\me\\proj\\..\\x', win), undefined);
  });
});
