import { useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { toast } from '../../stores/toasts';

/** Pastes a Claude Desktop / Cursor `{"mcpServers": {...}}` JSON. */
export function McpImport({ onImported }: { onImported(): void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    try {
      const parsed = JSON.parse(text) as { mcpServers?: unknown };
      const r = await api.tools.import({ mcpServers: (parsed.mcpServers ?? parsed) as Record<string, never> });
      toast(`${r.imported.length} imported${r.skipped.length ? `, ${r.skipped.length} skipped (${r.skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')})` : ''}.`);
      setText('');
      setError(null);
      onImported();
    } catch (err) {
      setError(err instanceof SyntaxError ? new Error('That is not valid JSON.') : err);
    }
  };
  return (
    <details className="card">
      <summary>Import from Claude Desktop or Cursor</summary>
      <div className="stack" style={{ marginTop: 8 }}>
        <label className="field">
          <span>Paste the mcpServers JSON (claude_desktop_config.json, .cursor/mcp.json)</span>
          <textarea rows={5} value={text} onChange={(e) => setText(e.target.value)} placeholder={'{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}}}'} />
        </label>
        <ErrorNote error={error} />
        <div className="row end">
          <button type="button" className="btn" disabled={!text.trim()} onClick={() => void run()}>
            Import
          </button>
        </div>
      </div>
    </details>
  );
}
