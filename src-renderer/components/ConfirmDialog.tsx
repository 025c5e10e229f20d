import { useId, useRef, type ReactNode } from 'react';
import { useModalDialog } from './use-modal';
import { useT } from '../i18n';

/**
 * The app's own confirm: a modal <dialog> (top layer, so always in view, focus kept inside,
 * Esc cancels) styled like the rest of the app, instead of the browser's unstyled confirm().
 * The safe button (Cancel) has focus; on close focus goes back to what opened it.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  danger,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const t = useT();
  const titleId = useId();
  useModalDialog(ref, open);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), onCancel())} data-testid="confirm-dialog">
      {open ? (
        <form
          method="dialog"
          onSubmit={(e) => {
            e.preventDefault();
            onConfirm();
          }}
        >
          <h2 id={titleId}>{title}</h2>
          <div className="dialog-body">{children}</div>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={onCancel} autoFocus>
              {t('common.cancel')}
            </button>
            <button type="submit" className={danger ? 'btn btn-danger' : 'btn btn-primary'}>
              {confirmLabel}
            </button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
