import * as l10n from '@vscode/l10n';
/** Codicon names for tool kinds and statuses (unknown values get a generic icon). */

const KIND_ICONS: Record<string, string> = {
  read: 'book',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-swap',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'globe',
  switch_mode: 'settings-gear',
  other: 'tools',
};

export function toolKindIcon(kind: string): string {
  return KIND_ICONS[kind] ?? 'tools';
}

const STATUS: Record<string, { icon: string; label: string }> = {
  pending: { icon: 'circle-large-outline', label: l10n.t('Pending') },
  in_progress: { icon: 'loading codicon-modifier-spin', label: l10n.t('Running') },
  completed: { icon: 'pass', label: l10n.t('Completed') },
  failed: { icon: 'error', label: l10n.t('Failed') },
  rejected: { icon: 'circle-slash', label: l10n.t('Rejected') },
  cancelled: { icon: 'debug-stop', label: l10n.t('Cancelled') },
  waiting: { icon: 'shield', label: l10n.t('Waiting for permission') },
};

export function toolStatus(status: string): { icon: string; label: string } {
  return STATUS[status] ?? { icon: 'circle-large-outline', label: status.replace(/_/g, ' ') };
}
