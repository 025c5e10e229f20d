import { useT } from '../../i18n';

const STATUSES = ['waiting', 'in_progress', 'completed', 'failed'] as const;
const isStatus = (s: string): s is (typeof STATUSES)[number] => (STATUSES as readonly string[]).includes(s);

/** A file's processing status in words: Waiting, Reading…, Ready, Failed (the reason in its tooltip). */
export function StatusBadge({ status, title }: { status: string; title?: string }) {
  const t = useT();
  const cls = status === 'completed' ? 'badge badge-ok' : status === 'failed' ? 'badge badge-error' : status === 'in_progress' ? 'badge badge-warn' : 'badge';
  return (
    <span className={cls} title={title} data-testid="file-status" data-status={status}>
      {isStatus(status) ? t(`files.status.${status}`) : status.replace(/_/g, ' ')}
    </span>
  );
}
