import { useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { parseArgs, parsePairs } from './mcp-form';

/** Adds an MCP server: a command to run (stdio) or a Streamable HTTP URL. Secrets go in env or headers and are never shown again. */
export function McpServerForm({ onAdded }: { onAdded(): void }) {
  const [transport, setTransport] = useState<'stdio' | 'http'>('stdio');
  const [name, setName] = useState('');
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [env, setEnv] = useState('');
  const [cwd, setCwd] = useState('');
  const [url, setUrl] = useState('');
  const [headers, setHeaders] = useState('');
  const [approval, setApproval] = useState<'ask' | 'auto'>('ask');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const add = async () => {
    setBusy(true);
    try {
      await api.tools.create(
        transport === 'stdio'
          ? { name: name.trim(), transport, command: command.trim(), args: parseArgs(args), env: parsePairs(env, '='), cwd: cwd.trim() || null, approval }
          : { name: name.trim(), transport, url: url.trim(), headers: parsePairs(headers, ':'), approval },
      );
      setName('');
      setCommand('');
      setArgs('');
      setEnv('');
      setUrl('');
      setHeaders('');
      setError(null);
      onAdded();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card stack"
      aria-label="Add an MCP server"
      data-testid="mcp-form"
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <h2 style={{ margin: 0 }}>Add a server</h2>
      <div className="row">
        <label className="field grow">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. files" required data-testid="mcp-name" />
        </label>
        <label className="field">
          <span>Transport</span>
          <select value={transport} onChange={(e) => setTransport(e.target.value as 'stdio' | 'http')} data-testid="mcp-transport">
            <option value="stdio">Command (stdio)</option>
            <option value="http">URL (Streamable HTTP)</option>
          </select>
        </label>
        <label className="field">
          <span>Tool calls</span>
          <select value={approval} onChange={(e) => setApproval(e.target.value as 'ask' | 'auto')} data-testid="mcp-approval">
            <option value="ask">Ask me first</option>
            <option value="auto">Run without asking</option>
          </select>
        </label>
      </div>
      {transport === 'stdio' ? (
        <>
          <label className="field">
            <span>Command</span>
            <input value={command} onChange={(e) => setCommand(e.target.value)} placeholder="npx" required data-testid="mcp-command" />
          </label>
          <div className="row">
            <label className="field grow">
              <span>Arguments (one per line)</span>
              <textarea rows={3} value={args} onChange={(e) => setArgs(e.target.value)} placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/home/me/Documents'} data-testid="mcp-args" />
            </label>
            <label className="field grow">
              <span>Environment (KEY=value per line; hidden once saved)</span>
              <textarea rows={3} value={env} onChange={(e) => setEnv(e.target.value)} placeholder="API_TOKEN=…" />
            </label>
          </div>
          <label className="field">
            <span>Working folder (optional)</span>
            <input value={cwd} onChange={(e) => setCwd(e.target.value)} />
          </label>
        </>
      ) : (
        <div className="row">
          <label className="field grow">
            <span>URL</span>
            <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:3001/mcp" required />
          </label>
          <label className="field grow">
            <span>Headers (Name: value per line; hidden once saved)</span>
            <textarea rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} placeholder="Authorization: Bearer …" />
          </label>
        </div>
      )}
      <ErrorNote error={error} />
      <div className="row end">
        <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()} data-testid="mcp-add">
          Add server
        </button>
      </div>
    </form>
  );
}
