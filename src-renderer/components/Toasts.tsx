import { useToasts } from '../stores/toasts';
import { useT } from '../i18n';

export function Toasts() {
  const { toasts, dismiss } = useToasts();
  const tr = useT();
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <span>{t.text}</span>
          <button type="button" className="btn-icon" aria-label={tr('components.toast.dismiss')} onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
