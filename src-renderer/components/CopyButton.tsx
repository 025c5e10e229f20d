import { toast } from '../stores/toasts';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast('Copied.');
    } catch {
      toast('Could not copy: the clipboard is not available here. Select the text instead.', 'error');
    }
  };
  return (
    <button type="button" className="btn btn-small" onClick={() => void copy()}>
      {label}
    </button>
  );
}
