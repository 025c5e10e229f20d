import { useId, useState } from 'react';
import type { McpServer, McpServerUpdate } from '../../../src-main/platform/contract/tools';
import { api, ApiError, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { parseArgs, parsePairs } from './mcp-form';
import { fieldSentence } from '../../api/field-errors';
import { t, useT } from '../../i18n';

type Transport = 'stdio' | 'http';

/** The fields that decide where a server's secrets go (what a person calls each: settings.mcpForm.destination). */
type DestinationField = 'transport' | 'command' | 'args' | 'cwd' | 'url';

/** A field's own sentence from a 422 (`errors.command`), and the rest for the general note. */
function splitErrors(err: unknown, fields: string[]): { byField: Record<string, string>; general: unknown } {
  if (!(err instanceof ApiError) || !err.errors) return { byField: {}, general: err };
  const byField: Record<string, string> = {};
  const names = t('settings.mcpForm.inSentence', { returnObjects: true }) as Record<string, string>;
  for (const [k, v] of Object.entries(err.errors)) if (fields.includes(k) && v[0]) byField[k] = fieldSentence(k, v[0], names[k]);
  const rest = Object.keys(err.errors).filter((k) => !(k in byField));
  return { byField, general: rest.length ? err : null };
}

/**
 * Adds an MCP server (a command to run, or a Streamable HTTP URL), or edits one in place
 * (`server`). Secrets go in env or headers and are never shown again; when an edit changes where
 * the server runs or what it connects to, the stored ones must be entered again: they are only
 * sent to the destination they were entered for (the platform refuses otherwise).
 */
export function McpServerForm({ server, onSaved, onCancel }: { server?: McpServer; onSaved(): void; onCancel?(): void }) {
  const editing = !!server;
  const uid = useId();
  const tr = useT();
  const [transport, setTransport] = useState<Transport>(server?.transport ?? 'stdio');
  const [name, setName] = useState(server?.name ?? '');
  const [command, setCommand] = useState(server?.command ?? '');
  const [args, setArgs] = useState(server?.args.join('\n') ?? '');
  const [env, setEnv] = useState('');
  const [cwd, setCwd] = useState(server?.cwd ?? '');
  const [url, setUrl] = useState(server?.url ?? '');
  const [headers, setHeaders] = useState('');
  const [drop, setDrop] = useState(false);
  const [approval, setApproval] = useState<'ask' | 'auto'>(server?.approval ?? 'ask');
  const [error, setError] = useState<unknown>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const stdio = transport === 'stdio';
  const secretField = stdio ? 'env' : 'headers';
  const stored = server ? (stdio ? server.env_keys : server.header_names) : [];
  const entered = parsePairs(stdio ? env : headers, stdio ? '=' : ':');
  const argsChanged = !!server && JSON.stringify(parseArgs(args)) !== JSON.stringify(server.args);
  // The first field (in the form's order) whose change sends the server's secrets somewhere new.
  const moved: DestinationField | null = !server
    ? null
    : transport !== server.transport
      ? 'transport'
      : stdio
        ? command.trim() !== (server.command ?? '')
          ? 'command'
          : argsChanged
            ? 'args'
            : (cwd.trim() || null) !== server.cwd
              ? 'cwd'
              : null
        : url.trim() !== (server.url ?? '')
          ? 'url'
          : null;
  const missing = moved && !drop ? stored.filter((k) => !(k in entered)) : [];
  const reenter = moved && stored.length ? stored : [];

  const reset = () => {
    setName('');
    setCommand('');
    setArgs('');
    setEnv('');
    setCwd('');
    setUrl('');
    setHeaders('');
  };

  const patchOf = (s: McpServer): McpServerUpdate => {
    const body: McpServerUpdate = {};
    if (name.trim() !== s.name) body.name = name.trim();
    if (transport !== s.transport) body.transport = transport;
    if (approval !== s.approval) body.approval = approval;
    if (stdio) {
      if (command.trim() !== (s.command ?? '')) body.command = command.trim();
      if (argsChanged) body.args = parseArgs(args);
      if ((cwd.trim() || null) !== s.cwd) body.cwd = cwd.trim() || null;
    } else if (url.trim() !== (s.url ?? '')) {
      body.url = url.trim();
    }
    const secrets: Record<string, string | null> = { ...entered };
    // "Send none of them to the new destination": each stored value not entered again is removed.
    if (moved && drop) for (const k of stored) if (!(k in secrets)) secrets[k] = null;
    if (Object.keys(secrets).length) body[secretField] = secrets;
    return body;
  };

  const save = async () => {
    if (missing.length) {
      setFieldErrors({ [secretField]: t('settings.mcpForm.enterAgain', { names: missing.join(', ') }) });
      return;
    }
    setBusy(true);
    try {
      if (server) {
        await api.call(ops.updateMcpServer, { params: { id: server.id }, body: patchOf(server) });
      } else {
        await api.call(ops.createMcpServer, {
          body: stdio
            ? { name: name.trim(), transport, command: command.trim(), args: parseArgs(args), env: parsePairs(env, '='), cwd: cwd.trim() || null, approval }
            : { name: name.trim(), transport, url: url.trim(), headers: parsePairs(headers, ':'), approval },
        });
        reset();
      }
      setError(null);
      setFieldErrors({});
      onSaved();
    } catch (err) {
      const { byField, general } = splitErrors(err, ['name', 'transport', 'command', 'args', 'env', 'cwd', 'url', 'headers']);
      setFieldErrors(byField);
      setError(general);
    } finally {
      setBusy(false);
    }
  };

  const clearError = (f: string) => setFieldErrors((all) => Object.fromEntries(Object.entries(all).filter(([k]) => k !== f)));
  const id = (f: string) => `${uid}-${f}`;
  const note = (f: string) =>
    fieldErrors[f] ? (
      <p className="field-note field-note-error" id={id(`${f}-error`)} data-testid={`mcp-${f}-error`}>
        {fieldErrors[f]}
      </p>
    ) : null;
  const described = (f: string, extra?: string) => [fieldErrors[f] ? id(`${f}-error`) : '', extra ?? ''].filter(Boolean).join(' ') || undefined;
  // Add mode keeps the test ids the e2e suites use; an edit form's are its own.
  const tid = (s: string) => (editing ? `mcp-edit-${s}` : `mcp-${s}`);

  const secretsHint = editing && stored.length ? (
    <p className="field-note" id={id('secrets-hint')}>
      {tr('settings.mcpForm.stored', { names: stored.join(', '), example: stdio ? 'KEY=value' : 'Name: value' })}
    </p>
  ) : null;
  const reenterNote = reenter.length ? (
    <div className="field-note field-note-warn" id={id('reenter')} role="status" data-testid="mcp-reenter">
      <p>{tr(stdio ? 'settings.mcpForm.reenterEnv' : 'settings.mcpForm.reenterHeaders', { changed: tr(`settings.mcpForm.destination.${moved!}`), names: reenter.join(', ') })}</p>
      <label className="check-inline">
        <input type="checkbox" checked={drop} onChange={(e) => setDrop(e.target.checked)} /> {tr('settings.mcpForm.sendNone')}
      </label>
    </div>
  ) : null;

  // env for a command, headers for a URL: the one field that holds the server's secrets.
  const secrets = (
    <div className="field grow">
      <label htmlFor={id(secretField)}>{stdio ? tr('settings.mcpForm.env') : tr('settings.mcpForm.headers')}</label>
      <textarea
        id={id(secretField)}
        rows={stdio ? 3 : 2}
        value={stdio ? env : headers}
        onChange={(e) => ((stdio ? setEnv : setHeaders)(e.target.value), clearError(secretField))}
        placeholder={stdio ? 'API_TOKEN=…' : 'Authorization: Bearer …'}
        data-testid={tid(secretField)}
        aria-invalid={!!fieldErrors[secretField] || missing.length > 0}
        aria-describedby={described(secretField, [secretsHint ? id('secrets-hint') : '', reenter.length ? id('reenter') : ''].filter(Boolean).join(' '))}
      />
      {secretsHint}
      {reenterNote}
      {note(secretField)}
    </div>
  );

  return (
    <form
      className="card stack"
      aria-label={editing ? tr('settings.providerCard.editName', { name: server.name }) : tr('settings.mcpForm.addLabel')}
      data-testid={editing ? 'mcp-edit-form' : 'mcp-form'}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && onCancel) {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      {/* In a server's card (its name an h3) the edit form's title sits below it. */}
      {editing ? <h4 style={{ margin: 0 }}>{tr('settings.providerCard.editName', { name: server.name })}</h4> : <h2 style={{ margin: 0 }}>{tr('settings.mcpForm.addTitle')}</h2>}
      <div className="row">
        <label className="field grow">
          <span>{tr('settings.providerForm.name')}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder={tr('settings.mcpNameExample')} required data-testid={tid('name')} aria-invalid={!!fieldErrors.name} aria-describedby={described('name')} />
          {note('name')}
        </label>
        <label className="field">
          <span>{tr('settings.mcpForm.transport')}</span>
          <select value={transport} onChange={(e) => setTransport(e.target.value as Transport)} data-testid={tid('transport')}>
            <option value="stdio">{tr('settings.mcpForm.stdio')}</option>
            <option value="http">{tr('settings.mcpForm.http')}</option>
          </select>
        </label>
        <label className="field">
          <span>{tr('settings.mcp.toolCalls')}</span>
          <select value={approval} onChange={(e) => setApproval(e.target.value as 'ask' | 'auto')} data-testid={tid('approval')}>
            <option value="ask">{tr('settings.mcp.ask')}</option>
            <option value="auto">{tr('settings.mcp.auto')}</option>
          </select>
        </label>
      </div>
      {stdio ? (
        <>
          <label className="field">
            <span>{tr('settings.mcpForm.command')}</span>
            <input value={command} onChange={(e) => setCommand(e.target.value)} placeholder="npx" required data-testid={tid('command')} aria-invalid={!!fieldErrors.command} aria-describedby={described('command')} />
            {note('command')}
          </label>
          <div className="row">
            <label className="field grow">
              <span>{tr('settings.mcpForm.args')}</span>
              <textarea rows={3} value={args} onChange={(e) => setArgs(e.target.value)} placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/home/me/Documents'} data-testid={tid('args')} aria-invalid={!!fieldErrors.args} aria-describedby={described('args')} />
              {note('args')}
            </label>
            {secrets}
          </div>
          <label className="field">
            <span>{tr('settings.mcpForm.cwd')}</span>
            <input value={cwd} onChange={(e) => setCwd(e.target.value)} data-testid={tid('cwd')} aria-invalid={!!fieldErrors.cwd} aria-describedby={described('cwd')} />
            {note('cwd')}
          </label>
        </>
      ) : (
        <div className="row">
          <label className="field grow">
            <span>URL</span>
            <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:3001/mcp" required data-testid={tid('url')} aria-invalid={!!fieldErrors.url} aria-describedby={described('url')} />
            {note('url')}
          </label>
          {secrets}
        </div>
      )}
      <ErrorNote error={error} />
      <div className="row end">
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            {tr('common.cancel')}
          </button>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()} data-testid={tid(editing ? 'save' : 'add')}>
          {editing ? tr('common.save') : tr('settings.mcpForm.add')}
        </button>
      </div>
    </form>
  );
}
