import { useAttachments } from '../../stores/attachments';
import { t as tr } from '../../i18n';
import type { Attachment } from '../../stores/attachments';
import { formatBytes } from '../../components/format';
import { duration } from './elapsed';
import { useNow } from './use-now';
import './composer.css';

/**
 * The files waiting to go with the next message: uploading (bytes sent, or "Sending…" where the
 * transport does not report them), being read (for how long), ready, or failed (in red, with the
 * reason, Retry and Remove). Never a full bar for a file that failed.
 */
export function AttachmentChips() {
  const attachments = useAttachments((s) => s.attachments);
  const reading = attachments.some((a) => a.phase === 'processing');
  const now = useNow(reading);
  if (!attachments.length) return null;
  return (
    <ul className="chips attachments" aria-label={tr('chat.chips.label')}>
      {attachments.map((a) => (
        <AttachmentChip key={a.key} a={a} now={now} />
      ))}
    </ul>
  );
}

function AttachmentChip({ a, now }: { a: Attachment; now: number }) {
  const detach = useAttachments((s) => s.detach);
  const retry = useAttachments((s) => s.retry);
  const pct = a.size ? Math.min(100, Math.floor((a.sent / a.size) * 100)) : 0;
  const failed = a.phase === 'failed';
  return (
    <li className={`chip attachment${failed ? ' chip-error' : ''}`} data-testid="attachment" data-state={state(a)} title={a.error}>
      <span className="chip-name">{a.name}</span>
      <span className="small chip-size">{formatBytes(a.size)}</span>
      <span className="small chip-status" data-testid="attachment-status">
        {statusText(a, pct, now)}
      </span>
      {a.phase === 'uploading' ? (
        <span
          className={`chip-progress${a.indeterminate ? ' indeterminate' : ''}`}
          role="progressbar"
          aria-label={tr('chat.chips.upload', { name: a.name })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={a.indeterminate ? undefined : pct}
          data-testid="attachment-progress"
        >
          <span style={a.indeterminate ? undefined : { width: `${pct}%` }} />
        </span>
      ) : null}
      {failed && a.retriable ? (
        <button type="button" className="btn-link small" onClick={() => void retry(a.key)} aria-label={tr('chat.chips.retryLabel', { name: a.name })}>
          {tr('chat.chips.retry')}
        </button>
      ) : null}
      <button type="button" className="btn-icon" aria-label={tr('chat.chips.remove', { name: a.name })} onClick={() => detach(a.key)}>
        ×
      </button>
    </li>
  );
}

/** The chip's state for tests and styles: uploading, processing, ready, failed. */
export const state = (a: Attachment) => a.phase;

function statusText(a: Attachment, pct: number, now: number): string {
  // The reason is in the sentence under the chips (and the chip's tooltip).
  if (a.phase === 'failed') return tr('chat.chips.failed');
  if (a.phase === 'ready') return tr('chat.chips.ready');
  if (a.phase === 'uploading') return a.indeterminate ? tr('chat.chips.sending') : tr('chat.chips.uploading', { pct });
  const since = a.readingSince ? Date.parse(a.readingSince) : NaN;
  const took = Number.isFinite(since) ? Math.max(0, Math.floor((now - since) / 1000)) : 0;
  const what = a.image ? tr('chat.chips.readingImage') : tr('chat.chips.reading');
  return took >= 2 ? tr('chat.chips.took', { what, time: duration(took) }) : tr('chat.chips.doing', { what });
}
