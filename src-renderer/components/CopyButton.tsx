import { toast } from '../stores/toasts';

/**
 * Copies `text`. `name` is what a screen reader hears when the visible label alone is not enough
 * ("Copy the base URL" where several Copy buttons sit on one screen).
 */
export function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; name?: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast('Copied.');
    } catch {
      toast('Could not copy: the clipboard is not available here. Select the text instead.', 'error');
    }
  };
  return (
    <button type="button" className="btn btn-small" aria-label={name ?? label} title={name} onClick={() => void copy()}>
      {label}
    </button>
  );
}
