import { hasInvisible as hasHidden, removeInvisible as removeHidden, revealInvisible as revealHidden } from '../shared/textSafety';
import { BUILTIN_RULES, compilePattern, type CommandPattern, type RuleContext, type RuleHit, type Verdict } from './commandRules';
import { analyzeArgv, analyzeCommandLine, type Analysis } from './commandUnwrap';
import { formatCommandLine } from './launchPlan';
import * as l10n from '@vscode/l10n';

export type { RuleHit, Verdict } from './commandRules';

/**
 * Decides what happens to a command an agent asks us to run, before anything starts: `deny` (never runs; the agent is
 * told to ask the user), `ask` (the user confirms it, seeing the full command), or `run`. The line is read as the
 * shell would read it, through `sudo`, `env`, `bash -c '…'`, `;` `&&` `||` `|` chains, quotes and `$( )`, and checked
 * both as written and without its hidden characters. Pure: no `vscode`, no side effects.
 */

export interface CommandPolicy {
  /** `howdah.commands.deny`: patterns that never run, plus `!id` entries turning a built-in rule off. */
  deny?: readonly string[];
  /** `howdah.commands.ask`: patterns that ask first, plus `!id` entries. */
  ask?: readonly string[];
  /** The user's home directory, recognised when spelled out. */
  home?: string;
}

export interface Classification {
  verdict: Verdict;
  /** Every rule that matched, refusals first. */
  hits: RuleHit[];
  /** The command as the user should see it: argv quoted as a shell would need it, hidden characters shown as ⟨U+…⟩. */
  display: string;
  /** Patterns in the settings that could not be read, for a warning. */
  problems: string[];
}

export function classifyCommand(command: string, args?: readonly string[], policy: CommandPolicy = {}): Classification {
  const argv = args && args.length > 0 ? [command, ...args] : undefined;
  const written = argv ? formatCommandLine(command, args) : command;
  const hits: RuleHit[] = [];
  const hidden = argv ? argv.some(hasHidden) : hasHidden(command);
  if (hidden) {
    hits.push({ rule: 'hidden-characters', verdict: 'ask', reason: l10n.t('it contains invisible or control characters, so it may not be what it looks like') });
  }
  // Both readings: the bytes as they will run, and the text a reader of the revealed form takes it for.
  const readings = hidden ? [argv ?? command, argv ? argv.map(removeHidden) : removeHidden(command)] : [argv ?? command];
  const disabled = new Set([...(policy.deny ?? []), ...(policy.ask ?? [])].filter((p) => p.startsWith('!')).map((p) => p.slice(1).trim()));
  const { deny, ask, problems } = compileUserPatterns(policy);
  for (const reading of readings) {
    const analysis = typeof reading === 'string' ? analyzeCommandLine(reading) : analyzeArgv(reading);
    const line = typeof reading === 'string' ? reading : reading.join(' ');
    const context: RuleContext = { home: policy.home, line };
    if (analysis.errors.length) {
      add(hits, { rule: 'unreadable', verdict: 'ask', reason: l10n.t('Howdah could not read all of it ({0})', analysis.errors[0]) });
    }
    for (const rule of BUILTIN_RULES) {
      if (disabled.has(rule.id)) continue;
      const matched = rule.testAnalysis?.(analysis, context) || (rule.test ? analysis.commands.some((c) => rule.test!(c, context)) : false);
      if (matched) add(hits, { rule: rule.id, verdict: rule.verdict, reason: rule.reason });
    }
    for (const p of deny) {
      if (matchesPattern(p, analysis, line)) add(hits, { rule: p.source, verdict: 'deny', reason: l10n.t('it matches "{0}" in howdah.commands.deny', p.source) });
    }
    for (const p of ask) {
      if (matchesPattern(p, analysis, line)) add(hits, { rule: p.source, verdict: 'ask', reason: l10n.t('it matches "{0}" in howdah.commands.ask', p.source) });
    }
  }
  hits.sort((a, b) => (a.verdict === b.verdict ? 0 : a.verdict === 'deny' ? -1 : 1));
  const verdict: Verdict = hits.some((h) => h.verdict === 'deny') ? 'deny' : hits.length ? 'ask' : 'run';
  return { verdict, hits, display: revealHidden(written), problems };
}

function matchesPattern(pattern: CommandPattern, analysis: Analysis, line: string): boolean {
  return pattern.matchesLine(line) || analysis.commands.some((c) => pattern.matches(c));
}

function add(hits: RuleHit[], hit: RuleHit): void {
  if (!hits.some((h) => h.rule === hit.rule)) hits.push(hit);
}

const compiledCache = new Map<string, CommandPattern | { error: string }>();

function compileUserPatterns(policy: CommandPolicy): { deny: CommandPattern[]; ask: CommandPattern[]; problems: string[] } {
  const problems: string[] = [];
  const compile = (sources: readonly string[] | undefined): CommandPattern[] => {
    const out: CommandPattern[] = [];
    for (const source of sources ?? []) {
      if (typeof source !== 'string' || source.startsWith('!') || !source.trim()) continue;
      let compiled = compiledCache.get(source);
      if (!compiled) {
        compiled = compilePattern(source);
        if (compiledCache.size < 500) compiledCache.set(source, compiled);
      }
      if ('error' in compiled) problems.push(compiled.error);
      else out.push(compiled);
    }
    return out;
  };
  return { deny: compile(policy.deny), ask: compile(policy.ask), problems };
}

/** Ids and reasons of the built-in rules, for documentation and the settings description. */
export function builtinRules(): { id: string; verdict: 'deny' | 'ask'; reason: string }[] {
  return BUILTIN_RULES.map(({ id, verdict, reason }) => ({ id, verdict, reason }));
}

/** Normalised form for comparing two spellings of one command line. */
export function sameCommand(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ');
  return norm(a) === norm(b);
}
