import { api, ops } from '../../api';
import { t, useT } from '../../i18n';
import { toast } from '../../stores/toasts';
import { useSessions } from '../../stores/sessions';

/**
 * A conversation as a file the person keeps: the platform writes it (GET /api/sessions/{id}/export:
 * Markdown with the chosen path, the models and the citations as footnotes, or JSON with every
 * branch), the page saves it as a download under the name the platform gives.
 */
export async function downloadSession(rootId: number, format: 'md' | 'json'): Promise<void> {
  try {
    const file = await api.bytes(ops.exportSession, { params: { id: rootId }, query: { format } });
    const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = file.filename ?? `conversation.${format}`;
    a.hidden = true;
    document.body.append(a);
    a.click();
    a.remove();
    // The download has the bytes once click() returns; the URL is let go a moment later.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    toast(t('sessions.export.done', { name: file.filename }));
  } catch (err) {
    useSessions.getState().showError(err);
  }
}

/** The two export choices, as items of a menu. */
export function ExportMenuItems({ rootId, onDone }: { rootId: number; onDone(): void }) {
  const t = useT();
  const pick = (format: 'md' | 'json') => () => {
    onDone();
    void downloadSession(rootId, format);
  };
  return (
    <>
      <button type="button" role="menuitem" className="menu-item" onClick={pick('md')} data-testid="export-md">
        {t('sessions.export.markdown')}
      </button>
      <button type="button" role="menuitem" className="menu-item" onClick={pick('json')} data-testid="export-json">
        {t('sessions.export.json')}
      </button>
    </>
  );
}
