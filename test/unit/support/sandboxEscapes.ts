import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * A workspace root full of ways out (links to outside, loops, dangling links, a sibling sharing its prefix) and the
 * corpus of paths that must be refused for it: relative, traversals, links, encodings, devices, wrong types. Every
 * way an agent names a file (fs/read_text_file, fs/write_text_file, the editor-context tools) is tested against it.
 */
export function escapeFixture(prefix: string): { base: string; root: string; outside: string; escapes: [string, unknown][] } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(path.join(root, 'nested', 'deeper'), { recursive: true });
  fs.mkdirSync(path.join(root, 'swap-dir'));
  fs.mkdirSync(outside);
  fs.mkdirSync(path.join(base, 'ws-sibling'));
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'a');
  fs.writeFileSync(path.join(root, 'swap-file.txt'), 'inside');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-out'));
  fs.symlinkSync(outside, path.join(root, 'dir-out'));
  fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(root, 'dangling-out'));
  fs.symlinkSync('../outside/missing-rel.txt', path.join(root, 'dangling-rel'));
  fs.symlinkSync('../../../outside', path.join(root, 'nested', 'deeper', 'link-parent'));
  fs.symlinkSync(path.join(root, 'chain2'), path.join(root, 'chain1'));
  fs.symlinkSync(outside, path.join(root, 'chain2'));
  fs.symlinkSync(path.join(root, 'loop2'), path.join(root, 'loop1'));
  fs.symlinkSync(path.join(root, 'loop1'), path.join(root, 'loop2'));
  fs.symlinkSync('/', path.join(root, 'root-link'));
  fs.symlinkSync('/proc/self/root', path.join(root, 'proc-link'));
  fs.symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'link-in'));
  const escapes: [string, unknown][] = [
    ['.. out of the root', path.join(root, '..', 'outside', 'secret.txt')],
    ['.. after a folder', `${root}/src/../../outside`],
    ['. then ..', `${root}/./../outside/new.txt`],
    ['.. through a file', `${root}/src/a.ts/../../../outside/secret.txt`],
    ['many ..', `${root}/${'../'.repeat(20)}etc/passwd`],
    ['link to a file outside', path.join(root, 'link-out')],
    ['file under a link to a folder outside', path.join(root, 'dir-out', 'secret.txt')],
    ['new file under a link to a folder outside', path.join(root, 'dir-out', 'new.txt')],
    ['new folders under a link outside', path.join(root, 'dir-out', 'a', 'b', 'new.txt')],
    ['dangling absolute link outside', path.join(root, 'dangling-out')],
    ['dangling relative link outside', path.join(root, 'dangling-rel')],
    ['link in a parent folder', path.join(root, 'nested', 'deeper', 'link-parent', 'secret.txt')],
    ['new file below a parent-folder link', path.join(root, 'nested', 'deeper', 'link-parent', 'new', 'x.txt')],
    ['chain of links', path.join(root, 'chain1', 'secret.txt')],
    ['link loop', path.join(root, 'loop1')],
    ['below a link loop', path.join(root, 'loop1', 'x.txt')],
    ['link to /', path.join(root, 'root-link', 'etc', 'passwd')],
    ['link to /proc/self/root', path.join(root, 'proc-link', 'etc', 'hostname')],
    ['relative', 'src/a.ts'],
    ['dot-relative', './src/a.ts'],
    ['parent-relative', '../outside/secret.txt'],
    ['~', '~/.ssh/id_rsa'],
    ['~user', '~root/.bashrc'],
    ['NUL in the middle', `${root}/a\0b`],
    ['NUL before an extension', `${root}/src/a.ts\0.png`],
    ['control character', `${root}/src/\x07bell`],
    ['sibling sharing the prefix', `${root}-sibling/x`],
    ['absolute outside', '/etc/passwd'],
    ['the file-system root', '/'],
    ['/proc/self/root prefix', `/proc/self/root${root}/src/a.ts`],
    ['percent-encoded ..', `${root}/%2e%2e/outside/secret.txt`],
    ['percent-encoded ../ upper case', `${root}/%2E%2E%2Foutside`],
    ['percent-encoded slash', `${root}/..%2foutside`],
    ['percent-encoded NUL', `${root}/a%00.txt`],
    ['file URI', `file://${root}/src/a.ts`],
    ['mixed case on a case-sensitive file system', root.toUpperCase() + '/src/a.ts'],
    ['mixed case sibling', `${root}/../${path.basename(root).toUpperCase()}-SIBLING/x`],
    ['Windows drive, backslashes', 'C:\\Windows\\system32\\drivers\\etc\\hosts'],
    ['Windows drive, slashes', 'C:/Windows/system32'],
    ['UNC', '\\\\server\\share\\x'],
    ['UNC with slashes', '//server/share/x'],
    ['Windows device path', '\\\\?\\C:\\x'],
    ['backslash traversal', `${root}\\..\\..\\outside\\secret.txt`],
    ['too long', `${root}/${'a/'.repeat(2100)}x`],
    ['empty', ''],
    ['a number', 42],
    ['null', null],
    ['an object', { path: `${root}/src/a.ts` }],
  ];
  return { base, root, outside, escapes };
}
