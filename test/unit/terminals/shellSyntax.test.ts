import { strict as assert } from 'node:assert';
import { allCommands, needsShell, parseShell } from '../../../src/terminals/shellSyntax';
import { formatCommandLine, planLaunch, quoteArgument, userShell } from '../../../src/terminals/launchPlan';

const words = (line: string) => [...allCommands(parseShell(line))].map((c) => c.words.map((w) => w.text));

describe('terminals: shell reader', () => {
  it('splits chains, pipes and background jobs into commands', () => {
    assert.deepEqual(words('a 1; b 2 && c || d | e & f'), [['a', '1'], ['b', '2'], ['c'], ['d'], ['e'], ['f']]);
    const script = parseShell('sleep 1 & echo hi');
    assert.equal(script.pipelines[0].background, true);
    assert.equal(script.pipelines[1].background, false);
  });

  it('removes quotes and escapes as the shell does', () => {
    assert.deepEqual(words(`echo 'a b' "c \\"d\\" $x" e\\ f $'g\\th' "" ''`), [['echo', 'a b', 'c "d" $x', 'e f', 'g\th', '', '']]);
  });

  it('marks expansions, globs and tildes', () => {
    const [cmd] = parseShell('ls ~/x *.ts $HOME "${A:-b}" $((1+2)) plain').pipelines[0].commands;
    const flags = cmd.words.map((w) => `${w.dynamic ? 'd' : ''}${w.glob ? 'g' : ''}${w.tilde ? 't' : ''}`);
    assert.deepEqual(flags, ['', 't', 'g', 'd', 'd', 'd', '']);
  });

  it('reads the commands inside $( ), backquotes, <( ) and subshells', () => {
    assert.deepEqual(words('echo $(date +%s) `whoami` <(ls a) (cd x && make)'), [['echo', '$(date +%s)', '`whoami`', '<(…)'], ['date', '+%s'], ['whoami'], ['ls', 'a'], [], ['cd', 'x'], ['make']]);
  });

  it('nested substitutions and quotes inside them', () => {
    assert.deepEqual(words('echo "$(basename "$(pwd)")"'), [['echo', '$(basename "$(pwd)")'], ['basename', '$(pwd)'], ['pwd']]);
  });

  it('redirections, with file descriptors and here-documents', () => {
    const [cmd] = parseShell('cmd 2>&1 >>log <in').pipelines[0].commands;
    assert.deepEqual(cmd.redirects.map((r) => `${r.op}${r.target?.text}`), ['>&1', '>>log', '<in']);
    const doc = parseShell('cat <<-EOF >out\n\thello $(whoami)\n\tEOF\necho after');
    const [cat] = doc.pipelines[0].commands;
    assert.equal(cat.redirects[0].body, 'hello $(whoami)');
    assert.deepEqual(words('cat <<EOF\nhello $(whoami)\nEOF\necho after'), [['cat'], ['whoami'], ['echo', 'after']]);
    assert.deepEqual(words("cat <<'EOF'\n$(not run)\nEOF"), [['cat']]);
  });

  it('control structures: the commands in their bodies', () => {
    assert.deepEqual(words('if test -f x; then rm x; else touch x; fi'), [['test', '-f', 'x'], ['rm', 'x'], ['touch', 'x']]);
    assert.deepEqual(words('while true; do sleep 1; done'), [['true'], ['sleep', '1']]);
    assert.deepEqual(words('for i in 1 2; do echo $i; done'), [['echo', '$i']]);
    assert.deepEqual(words('case $x in a|b) one;; *) two;; esac; three'), [['one'], ['two'], ['three']]);
    assert.deepEqual(words('{ a; b; } > log'), [[], ['a'], ['b']]);
  });

  it('function definitions are kept apart, with their bodies', () => {
    const script = parseShell('f() { g; }; function h { i; }; f');
    assert.deepEqual(script.functions.map((f) => f.name), ['f', 'h']);
    assert.deepEqual(words('f() { g; }; f'), [['f'], ['g']]);
  });

  it('assignments before a command, comments, line continuations', () => {
    const [cmd] = parseShell('A=1 B="two words" run \\\n  --flag # a comment; rm -rf /').pipelines[0].commands;
    assert.deepEqual(cmd.assignments.map((w) => w.text), ['A=1', 'B=two words']);
    assert.deepEqual(cmd.words.map((w) => w.text), ['run', '--flag']);
  });

  it('never throws: an open quote is an error, and the commands before it are kept', () => {
    for (const line of ['echo "open', "echo 'open", 'echo $(open', 'echo `open', 'echo ${open', ')))', '((((', '|||', ';;;', '<<', '$', '\\']) {
      const script = parseShell(line);
      assert.ok(Array.isArray(script.errors), line);
    }
    const broken = parseShell('rm -rf / ; echo "open');
    assert.ok(broken.errors.length > 0);
    assert.deepEqual([...allCommands(broken)][0].words.map((w) => w.text), ['rm', '-rf', '/']);
  });

  it('deep nesting is cut off, not a stack overflow', () => {
    const deep = '$('.repeat(5000) + 'x' + ')'.repeat(5000);
    assert.ok(parseShell(`echo ${deep}`).errors.length > 0);
  });

  it('needsShell: only for more than one plain command of literal words', () => {
    for (const line of ['ls -la', 'git commit -m "a b"', "echo 'x|y'", 'printf a\\ b']) assert.equal(needsShell(parseShell(line)), false, line);
    for (const line of ['a && b', 'a | b', 'a > f', 'ls *.ts', 'echo $HOME', 'cd ~', 'A=1 b', 'a &', 'echo $(x)', '(a)', 'f() { a; }']) {
      assert.equal(needsShell(parseShell(line)), true, line);
    }
  });
});

describe('terminals: launch plan', () => {
  const env = { SHELL: '/bin/bash', PATH: '/usr/bin' };
  const isFile = (p: string) => ['/bin/bash', '/usr/bin/fish', '/opt/My App/tool'].includes(p);

  it('argv runs as given, without a shell', () => {
    assert.deepEqual(planLaunch('git', ['log', '--oneline'], { env, isFile }), { file: 'git', args: ['log', '--oneline'], viaShell: false });
  });

  it('a plain command line is split, still without a shell', () => {
    assert.deepEqual(planLaunch('git commit -m "a b"', undefined, { env, isFile }), { file: 'git', args: ['commit', '-m', 'a b'], viaShell: false });
    assert.deepEqual(planLaunch('make', [], { env, isFile }), { file: 'make', args: [], viaShell: false });
  });

  it('a program path with spaces runs as it is', () => {
    assert.deepEqual(planLaunch('/opt/My App/tool', undefined, { env, isFile }), { file: '/opt/My App/tool', args: [], viaShell: false });
  });

  it('a line that needs a shell runs through the user shell with -c', () => {
    assert.deepEqual(planLaunch('npm test && npm run lint', undefined, { env, isFile }), { file: '/bin/bash', args: ['-c', 'npm test && npm run lint'], viaShell: true });
    assert.equal(planLaunch('ls *.md', undefined, { env: { SHELL: '/usr/bin/fish' }, isFile }).file, '/bin/sh', 'fish does not read POSIX lines');
    assert.equal(userShell({}, isFile), '/bin/sh');
  });

  it('Windows: cmd.exe /d /s /c with the line verbatim', () => {
    const plan = planLaunch('dir && echo x', undefined, { env: { ComSpec: 'C:\\Windows\\system32\\cmd.exe' }, platform: 'win32', isFile });
    assert.deepEqual(plan, { file: 'C:\\Windows\\system32\\cmd.exe', args: ['/d', '/s', '/c', '"dir && echo x"'], viaShell: true, verbatim: true });
  });

  it('Windows: a program started directly falls back to cmd.exe (npm is npm.cmd)', () => {
    const plan = planLaunch('npm', ['run', 'a b'], { env: {}, platform: 'win32', isFile });
    assert.equal(plan.file, 'npm');
    assert.deepEqual(plan.fallback, { file: 'cmd.exe', args: ['/d', '/s', '/c', '"npm run "a b""'], viaShell: true, verbatim: true });
    assert.equal(planLaunch('git', ['status'], { env, isFile }).fallback, undefined, 'not elsewhere');
  });

  it('formats argv as a line a shell reads back to the same argv', () => {
    const argv = ['it\'s', 'a b', '', '$HOME', 'plain-1.0', 'x;y'];
    const line = formatCommandLine('echo', argv);
    assert.equal(line, `echo 'it'\\''s' 'a b' '' '$HOME' plain-1.0 'x;y'`);
    assert.deepEqual(words(line)[0].slice(1), argv);
    assert.equal(quoteArgument('ok'), 'ok');
  });
});
