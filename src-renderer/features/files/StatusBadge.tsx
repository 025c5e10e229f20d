/** A file's processing status in words: Waiting, Reading…, Ready, Failed (the reason in its tooltip). */
const WORDS: Record<string, string> = { waiting: 'Waiting', in_progress: 'Reading…', completed: 'Ready', failed: 'Failed' };

export function StatusBadge({ status, title }: { status: string; title?: string }) {
  const cls = status === 'completed' ? 'badge badge-ok' : status === 'failed' ? 'badge badge-error' : status === 'in_progress' ? 'badge badge-warn' : 'badge';
  return (
    <span className={cls} title={title} data-testid="file-status" data-status={status}>
      {WORDS[status] ?? status.replace(/_/g, ' ')}
    </span>
  );
}
