import { toast } from '../stores/toasts';
import { t, useT } from '../i18n';

/**
 * Copies `text`. `name` is what a screen reader hears when the visible label alone is not enough
 * ("Copy the base URL" where several Copy buttons sit on one screen).
 */
export function CopyButton({ text, label, name }: { text: string; label?: string; name?: string }) {
  const tr = useT();
  const shown = label ?? tr('components.copy.label');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast(t('components.copy.copied'));
    } catch {
      toast(t('components.copy.failed'), 'error');
    }
  };
  return (
    <button type="button" className="btn btn-small" aria-label={name ?? shown} title={name} onClick={() => void copy()}>
      {shown}
    </button>
  );
}
