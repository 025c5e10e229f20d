import { useState } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { toast } from '../../stores/toasts';
import { platformText, t, useT } from '../../i18n';

/** Pastes a Claude Desktop / Cursor `{"mcpServers": {...}}` JSON. */
export function McpImport({ onImported }: { onImported(): void }) {
  const tr = useT();
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    try {
      const parsed = JSON.parse(text) as { mcpServers?: unknown };
      const r = await api.call(ops.importMcpServers, { body: { mcpServers: (parsed.mcpServers ?? parsed) as Record<string, never> } });
      const skipped = r.skipped.map((s) => platformText(`${s.name}: ${s.reason}`, () => s.name)).join('; ');
      toast(r.skipped.length ? t('settings.mcp.importedSkipped', { count: r.imported.length, skipped: r.skipped.length, list: skipped }) : t('settings.mcp.imported', { count: r.imported.length }));
      setText('');
      setError(null);
      onImported();
    } catch (err) {
      setError(err instanceof SyntaxError ? new Error(t('settings.mcp.notJson')) : err);
    }
  };
  return (
    <details className="card">
      <summary>{tr('settings.mcp.importTitle')}</summary>
      <div className="stack" style={{ marginTop: 8 }}>
        <label className="field">
          <span>{tr('settings.mcp.paste')}</span>
          <textarea rows={5} value={text} onChange={(e) => setText(e.target.value)} placeholder={'{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}}}'} />
        </label>
        <ErrorNote error={error} />
        <div className="row end">
          <button type="button" className="btn" disabled={!text.trim()} onClick={() => void run()}>
            {tr('settings.mcp.import')}
          </button>
        </div>
      </div>
    </details>
  );
}
