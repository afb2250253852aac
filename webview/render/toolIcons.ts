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
  pending: { icon: 'circle-large-outline', label: 'Pending' },
  in_progress: { icon: 'loading codicon-modifier-spin', label: 'Running' },
  completed: { icon: 'pass', label: 'Completed' },
  failed: { icon: 'error', label: 'Failed' },
  rejected: { icon: 'circle-slash', label: 'Rejected' },
  cancelled: { icon: 'debug-stop', label: 'Cancelled' },
  waiting: { icon: 'shield', label: 'Waiting for permission' },
};

export function toolStatus(status: string): { icon: string; label: string } {
  return STATUS[status] ?? { icon: 'circle-large-outline', label: status.replace(/_/g, ' ') };
}
