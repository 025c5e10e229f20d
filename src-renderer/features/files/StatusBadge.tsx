export function StatusBadge({ status, title }: { status: string; title?: string }) {
  const cls = status === 'completed' ? 'badge badge-ok' : status === 'failed' ? 'badge badge-error' : status === 'in_progress' ? 'badge badge-warn' : 'badge';
  return (
    <span className={cls} title={title} data-testid="file-status">
      {status.replace('_', ' ')}
    </span>
  );
}
