import type { Analysis, EffectiveCommand } from './commandUnwrap';
import type { Word } from './shellSyntax';
import * as l10n from '@vscode/l10n';

/**
 * The rules a command is checked against before it runs: built-in ones (each with an id the user can turn off with
 * `!id`) and the user's own patterns. A pattern is either
 *   - words: `git push --force|-f`: the program's name (a glob: `mkfs*`, alternatives with `|`), then words that must
 *     each match one of its arguments, in any order. `-x` also matches a cluster of short options holding x (`-rf`),
 *     `--long` also `--long=value` and an abbreviation of four characters or more; other words are globs (`*`, `?`);
 *   - or `/regex/flags`, tested against each command (program and arguments joined by spaces) and the whole line.
 * Pure.
 */

export type Verdict = 'deny' | 'ask' | 'run';

export interface RuleHit {
  /** The built-in rule's id, or the user's pattern. */
  rule: string;
  verdict: Exclude<Verdict, 'run'>;
  reason: string;
}

export interface RuleContext {
  /** The user's home directory, to recognise it spelled out. */
  home?: string;
  /** The line as written (hidden characters removed), for `/regex/` patterns. */
  line: string;
}

export interface CommandRule {
  id: string;
  verdict: Exclude<Verdict, 'run'>;
  reason: string;
  /** Checked against the whole analysis (pipelines, functions) … */
  testAnalysis?(analysis: Analysis, context: RuleContext): boolean;
  /** … or against each command that may run. */
  test?(command: EffectiveCommand, context: RuleContext): boolean;
}

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'aria2c', 'iwr', 'irm', 'invoke-webrequest', 'invoke-restmethod']);
const BLOCK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper\/|loop\d|sr\d|nbd\d|mem$|kmem$|port$)/;
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
/** Before the rules: building them compiles their patterns. */
const globCache = new Map<string, RegExp>();

export const BUILTIN_RULES: readonly CommandRule[] = [
  {
    id: 'delete-root-or-home',
    verdict: 'deny',
    reason: l10n.t('it deletes or rewrites the root directory, a top-level system directory or a home directory'),
    test: (c, ctx) => {
      const recursive = hasFlag(c.args, 'r') || hasFlag(c.args, 'R') || hasLong(c.args, '--recursive');
      if (c.program === 'rm' && (recursive || hasLong(c.args, '--no-preserve-root'))) return positionals(c.args).some((w) => isRootOrHome(w, ctx));
      if ((c.program === 'chmod' || c.program === 'chown' || c.program === 'chgrp') && recursive) return positionals(c.args).some((w) => isRootOrHome(w, ctx));
      if (c.program === 'find' && c.args.some((w) => w.text === '-delete' || w.text === '-exec' || w.text === '-execdir')) {
        const root = c.args.find((w) => !w.text.startsWith('-'));
        return !!root && isRootOrHome(root, ctx);
      }
      return false;
    },
  },
  {
    id: 'fork-bomb',
    verdict: 'deny',
    reason: l10n.t('it is a fork bomb: a function that starts copies of itself until the machine stops responding'),
    testAnalysis: (a) => a.functions.some(({ name, body }) => isForkBomb(name, body)),
  },
  {
    id: 'download-to-shell',
    verdict: 'deny',
    reason: l10n.t('it runs a script straight from the network (curl … | sh) without anyone reading it first'),
    testAnalysis: (a) =>
      a.pipelines.some((p) => p.some((c, i) => c.readsScriptFromStdin && p.slice(0, i).some((s) => DOWNLOADERS.has(s.program.toLowerCase())))) ||
      a.substitutedScripts.some((s) => s.sources.some((c) => DOWNLOADERS.has(c.program.toLowerCase()))),
  },
  {
    id: 'write-block-device',
    verdict: 'deny',
    reason: l10n.t('it writes to a disk device, which destroys the file systems on it'),
    test: (c) =>
      c.redirects.some((r) => WRITE_REDIRECTS.has(r.op) && !!r.target && BLOCK_DEVICE.test(r.target.text)) ||
      (c.program === 'dd' && c.args.some((w) => w.text.startsWith('of=') && BLOCK_DEVICE.test(w.text.slice(3)))) ||
      (['tee', 'cp', 'shred', 'blkdiscard', 'wipefs', 'badblocks'].includes(c.program) && c.args.some((w) => BLOCK_DEVICE.test(w.text))),
  },
  pattern('format-disk', 'deny', l10n.t('it formats or repartitions a disk'), [
    'mkfs*', 'mke2fs', 'mkswap', 'wipefs', 'blkdiscard', 'fdisk', 'sfdisk', 'gdisk', 'sgdisk', 'parted', 'cfdisk',
    'diskutil eraseDisk|eraseVolume|partitionDisk|zeroDisk|randomDisk|secureErase|reformat',
  ]),
  pattern('power-off', 'deny', l10n.t('it shuts down or restarts the machine'), [
    'shutdown', 'reboot', 'halt', 'poweroff', 'init 0|6', 'telinit 0|6',
    'systemctl poweroff|reboot|halt|kexec|suspend|hibernate|emergency|rescue', 'loginctl poweroff|reboot|suspend',
  ]),
  {
    id: 'kill-everything',
    verdict: 'deny',
    reason: l10n.t('it signals every process of the user (kill … -1), the editor included'),
    test: (c) => (c.program === 'kill' && c.args.length >= 2 && c.args.at(-1)?.text === '-1') || c.program === 'killall5',
  },
  pattern('recursive-delete', 'ask', l10n.t('it deletes directories recursively'), ['rm -r|-R|--recursive']),
  {
    id: 'bulk-delete',
    verdict: 'ask',
    reason: l10n.t('it deletes files chosen at run time (find -exec rm, xargs rm)'),
    test: (c) => c.openArgs && ['rm', 'unlink', 'shred', 'rmdir'].includes(c.program),
  },
  pattern('find-delete', 'ask', l10n.t('it deletes every file find matches'), ['find -delete']),
  pattern('git-discard', 'ask', l10n.t('it throws away uncommitted work or commits'), [
    'git reset --hard|--keep|--merge', 'git clean -f|--force', 'git checkout -f|--force|--|.', 'git stash drop|clear',
    'git branch -D', 'git filter-branch|filter-repo', 'git reflog expire|delete', 'git update-ref -d|--delete',
  ]),
  pattern('git-push-force', 'ask', l10n.t('it rewrites or deletes history on a remote'), [
    'git push -f|--force|--force-with-lease|--force-if-includes|--mirror|--delete|-d|--prune|+*',
  ]),
  pattern('recursive-permissions', 'ask', l10n.t('it changes owners or permissions recursively'), ['chmod|chown|chgrp -R|--recursive']),
  pattern('publish', 'ask', l10n.t('it publishes a package or an image'), [
    'npm|pnpm|yarn|bun publish|unpublish|deprecate', 'cargo publish|yank', 'gem push|yank', 'twine upload',
    'poetry|flit|hatch|uv publish', 'vsce|ovsx publish|unpublish', 'dotnet|nuget push|delete', 'docker|podman push',
    'mvn deploy', 'gradle|gradlew publish*', 'gh release create|delete|upload', 'gh repo delete', 'helm push', 'pod trunk',
  ]),
  pattern('raw-disk-copy', 'ask', l10n.t('dd copies raw bytes and overwrites its target without asking'), ['dd', 'shred']),
  pattern('kill-by-name', 'ask', l10n.t('it kills processes by name, which can hit the editor or other programs'), ['pkill', 'killall']),
  pattern('destroy-infrastructure', 'ask', l10n.t('it deletes containers, volumes or cloud resources'), [
    'docker|podman prune', 'docker|podman volume rm', 'docker|podman rm|rmi -f|--force', 'terraform|tofu|pulumi destroy',
    'terraform|tofu apply -auto-approve|--auto-approve', 'kubectl delete', 'helm uninstall|delete', 'aws rm|rb|delete-*|terminate-*',
    'gcloud delete', 'crontab -r',
  ]),
  pattern('drop-database', 'ask', l10n.t('it drops database tables or databases'), ['/\\b(drop\\s+(database|schema|table)|truncate\\s+table)\\b/i']),
  {
    id: 'elevated',
    verdict: 'ask',
    reason: l10n.t('it runs with administrator rights (sudo, doas, su)'),
    test: (c) => c.elevated,
  },
  {
    id: 'script-from-pipe',
    verdict: 'ask',
    reason: l10n.t('it runs a script that another command writes into a shell or interpreter'),
    testAnalysis: (a) => a.pipelines.some((p) => p.some((c, i) => i > 0 && c.readsScriptFromStdin)),
  },
  {
    id: 'opaque',
    verdict: 'ask',
    reason: l10n.t('part of what it runs is only known when it runs ($CMD, bash -c "$X", eval)'),
    test: (c) => c.opaque,
  },
];

/** A rule made of patterns: the user's lists use the same ones. */
function pattern(id: string, verdict: 'deny' | 'ask', reason: string, sources: string[]): CommandRule {
  const compiled = sources.map((s) => compilePattern(s) as CommandPattern);
  return {
    id,
    verdict,
    reason,
    testAnalysis: (a, ctx) => compiled.some((p) => p.matchesLine(ctx.line) || a.commands.some((c) => p.matches(c))),
  };
}

export interface CommandPattern {
  source: string;
  matches(command: EffectiveCommand): boolean;
  matchesLine(line: string): boolean;
}

/** A user pattern, or the reason it is not one. */
export function compilePattern(source: string): CommandPattern | { error: string } {
  const trimmed = source.trim();
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(trimmed);
  if (regex) {
    let re: RegExp;
    try {
      re = new RegExp(regex[1], regex[2].replace(/[gy]/g, ''));
    } catch (error) {
      return { error: `${source}: ${(error as Error).message}` };
    }
    return { source, matches: (c) => re.test(commandText(c)), matchesLine: (line) => re.test(line) };
  }
  const [program, ...words] = trimmed.split(/\s+/).filter(Boolean);
  if (!program) return { error: l10n.t('an empty pattern') };
  const programs = program.split('|').map(globToRegExp);
  const alternatives = words.map((w) => w.split('|'));
  return {
    source,
    matches: (c) => programs.some((p) => p.test(c.program)) && alternatives.every((alts) => alts.some((alt) => argumentMatches(alt, c.args))),
    matchesLine: () => false,
  };
}

function argumentMatches(alt: string, args: readonly Word[]): boolean {
  let options = true;
  for (const arg of args) {
    const text = arg.text;
    if (alt === '--' && text === '--') return true;
    if (text === '--') {
      options = false;
      continue;
    }
    if (/^-[^-]$/.test(alt)) {
      if (options && (text === alt || (/^-[A-Za-z0-9]+$/.test(text) && text.includes(alt[1])))) return true;
    } else if (alt.startsWith('--') && alt.length > 2) {
      if (options && (text === alt || text.startsWith(`${alt}=`) || (text.length >= 4 && text.startsWith('--') && alt.startsWith(text)))) return true;
    } else if (globToRegExp(alt).test(text)) return true;
  }
  return false;
}

function globToRegExp(glob: string): RegExp {
  let re = globCache.get(glob);
  if (!re) {
    re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 's');
    if (globCache.size < 1000) globCache.set(glob, re);
  }
  return re;
}

export function commandText(c: EffectiveCommand): string {
  return [c.program, ...c.args.map((w) => w.text)].join(' ');
}

/** A short option cluster holding `letter` (`-rf` has r), before any `--`. */
function hasFlag(args: readonly Word[], letter: string): boolean {
  for (const w of args) {
    if (w.text === '--') return false;
    if (/^-[A-Za-z0-9]+$/.test(w.text) && w.text.includes(letter)) return true;
  }
  return false;
}

function hasLong(args: readonly Word[], option: string): boolean {
  return args.some((w) => w.text === option || w.text.startsWith(`${option}=`));
}

/** Arguments that are not options (everything after `--` counts). */
function positionals(args: readonly Word[]): Word[] {
  const out: Word[] = [];
  let options = true;
  for (const w of args) {
    if (options && w.text === '--') options = false;
    else if (!options || !w.text.startsWith('-') || w.text === '-') out.push(w);
  }
  return out;
}

/** `/`, `/*`, a top-level directory (`/usr`, `/home`), a home directory (`~`, `$HOME`, `/home/ann`, the user's own). */
export function isRootOrHome(word: Word, context: { home?: string }): boolean {
  let text = word.text.replace(/\/{2,}/g, '/');
  // `/.`, `/*`, `/.*` and trailing slashes name the same directory (or everything in it).
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(/\/(\.\*?|\*|\.\/?)$/, '/').replace(/(.)\/+$/, '$1');
  }
  if (text === '/' || text === '' || /^\/[^/]+$/.test(text)) return word.text.startsWith('/');
  if (/^[A-Za-z]:[\\/]?(\*)?$/.test(text)) return true;
  if (/^~[A-Za-z0-9._-]*$/.test(text)) return true;
  if (/^(\$HOME|\$\{HOME\}|\$USERPROFILE|%USERPROFILE%)$/.test(text)) return true;
  if (/^\/(home|Users)\/[^/]+$/.test(text)) return true;
  const home = context.home?.replace(/\/+$/, '');
  return !!home && home.length > 1 && text === home;
}

/**
 * A function that calls itself at least twice (`:(){ :|:& }`, `f(){ f & f; }`): each call doubles the processes. A
 * shell function that recurses twice on purpose is rare enough that refusing it costs little (`!fork-bomb` allows it).
 */
function isForkBomb(name: string, body: Analysis): boolean {
  if (!name) return false;
  if (body.commands.filter((c) => c.program === name).length >= 2) return true;
  return body.functions.some((f) => isForkBomb(f.name, f.body));
}
