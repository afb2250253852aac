import * as l10n from '@vscode/l10n';
/**
 * What the agent of a session may do, as Howdah sets it up for it: the folders its file access is confined to, the
 * file and terminal capabilities offered, and the MCP servers passed to it. The panel shows it before the first prompt
 * (folded to one line afterwards), each part with a link to the setting that decides it.
 */
export interface AllowancesView {
  /** The session's roots (its cwd, the other workspace folders, folders granted since), absolute paths. */
  readonly folders: readonly string[];
  /** `howdah.fs.read`: reads through Howdah (open buffers, unsaved text included). */
  readonly read: boolean;
  /** `howdah.fs.write`: `apply` (apply, then review), `ask` (each write waits), `off`. */
  readonly write: string;
  /** `howdah.terminal`: `allow`, `ask` (each command), `off`. */
  readonly terminal: string;
  /** How many command patterns `howdah.commands.deny` and `howdah.commands.ask` hold. */
  readonly commandRules: { readonly deny: number; readonly ask: number };
  /** Passed on session/new (or what a start would pass, when no agent runs); `own`: Howdah's editor-context server. */
  readonly mcpServers: readonly { readonly name: string; readonly transport: string; readonly own: boolean }[];
  /** True: what the running agent was given; false: what a start would give it now, from the settings. */
  readonly live: boolean;
}

/** The settings the panel's summary links to (the `openSetting` intent takes only these). */
export const ALLOWANCE_SETTINGS = [
  'howdah.fs.read',
  'howdah.fs.write',
  'howdah.terminal',
  'howdah.commands.deny',
  'howdah.commands.ask',
  'howdah.mcpServers',
  'howdah.editorContext',
] as const;
export type AllowanceSetting = (typeof ALLOWANCE_SETTINGS)[number];

/** "Write: apply, then review" and so on: a capability's value in words. */
export function writeWords(write: string): string {
  return write === 'apply' ? l10n.t('applied, then reviewed') : write === 'ask' ? l10n.t('asks first') : write === 'off' ? l10n.t('no') : write;
}

export function terminalWords(terminal: string): string {
  return terminal === 'allow' ? l10n.t('yes') : terminal === 'ask' ? l10n.t('asks first') : terminal === 'off' ? l10n.t('no') : terminal;
}

/** The folded line: "2 folders · read · write: applied, then reviewed · commands: yes · 1 MCP server". */
export function allowancesLine(a: AllowancesView): string {
  return [
    a.folders.length === 1 ? l10n.t('1 folder') : l10n.t('{0} folders', a.folders.length),
    l10n.t('read: {0}', a.read ? l10n.t('yes') : l10n.t('no')),
    l10n.t('write: {0}', writeWords(a.write)),
    l10n.t('commands: {0}', terminalWords(a.terminal)),
    a.mcpServers.length === 1 ? l10n.t('1 MCP server') : l10n.t('{0} MCP servers', a.mcpServers.length),
  ].join(' · ');
}
