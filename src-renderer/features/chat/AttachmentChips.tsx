import { useChat, type Attachment } from '../../stores/chat';

/** The files waiting to go with the next message: uploading, processing, ready, or failed (with why). */
export function AttachmentChips() {
  const attachments = useChat((s) => s.attachments);
  const detach = useChat((s) => s.detach);
  if (!attachments.length) return null;
  return (
    <ul className="chips" aria-label="Attachments">
      {attachments.map((a) => (
        <li key={a.key} className={a.error ? 'chip chip-error' : 'chip'} data-testid="attachment" data-state={state(a)}>
          <span className="chip-name">{a.name}</span> <span className="small chip-status">{a.error ? 'failed' : a.status}</span>
          <button type="button" className="btn-icon" aria-label={`Remove ${a.name}`} onClick={() => detach(a.key)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

export const state = (a: Attachment) => (a.error ? 'failed' : a.done ? 'ready' : a.fileId === null && !a.status.startsWith('processing') ? 'uploading' : 'processing');

/** Why Send is off because of attachments, or null. */
export function attachmentBlock(attachments: Attachment[]): string | null {
  const failed = attachments.find((a) => a.error);
  if (failed) return `"${failed.name}" could not be attached: ${failed.error} Remove it to send.`;
  const waiting = attachments.find((a) => !a.done);
  if (waiting) return `Waiting for "${waiting.name}" to be ${state(waiting) === 'uploading' ? 'uploaded' : 'processed'}…`;
  return null;
}
