import { useEffect, useState } from 'react';
import { ApiError, messageOf } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../components/confirm';
import { remoteApi, type RemoteSettings } from './remote-api';
import { useRemote } from './remote-store';
import { RemoteStatus } from './RemoteStatus';

type TestLine = { ok: boolean; text: string } | null;

/** Settings → Remote: connect another Agent Platform whose agents are listed beside the local ones. */
export function RemotePanel() {
  const { settings, error: loadError, load, set } = useRemote();
  const reloadAgents = useAgents((s) => s.load);
  const [url, setUrl] = useState('');
  // The key is write-only: the field starts empty and is cleared after each save.
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [test, setTest] = useState<TestLine>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    setUrl(settings?.base_url ?? '');
  }, [settings?.base_url]);

  if (!settings) return loadError ? <ErrorNote error={loadError} what="Remote platform settings" /> : <p className="muted">Loading…</p>;
  const dirty = url.trim() !== (settings.base_url ?? '') || !!key.trim();
  const configured = settings.status !== 'unconfigured';

  /** Runs one action; every action that changes the connection also refreshes the agent list. */
  const act = async (name: string, fn: () => Promise<RemoteSettings | void>) => {
    setBusy(name);
    setError(null);
    try {
      const next = await fn();
      if (next) set(next);
      await reloadAgents();
    } catch (err) {
      setError(err);
      // A failed refresh is recorded as offline on the platform: show it.
      await load();
      await reloadAgents();
    } finally {
      setBusy(null);
    }
  };

  const save = () =>
    act('save', async () => {
      const next = await remoteApi.save({ base_url: url.trim() || null, ...(key.trim() ? { api_key: key.trim() } : {}) });
      setKey('');
      setTest(null);
      if (next.status === 'online') toast(`Connected: ${next.agent_count} remote agent${next.agent_count === 1 ? '' : 's'}.`);
      return next;
    });
  const removeKey = async () => {
    if (!(await askConfirm({ title: 'Remove the stored key?', body: 'The remote agents stay listed but cannot run until a key is saved again.', confirmLabel: 'Remove key', danger: true }))) return;
    void act('remove-key', () => remoteApi.save({ api_key: null }));
  };
  const disconnect = async () => {
    if (!(await askConfirm({ title: `Disconnect ${settings.base_url ?? 'the remote platform'}?`, body: 'Its agents leave the lists here; past conversations stay.', confirmLabel: 'Disconnect', danger: true }))) return;
    void act('disconnect', async () => {
      const next = await remoteApi.save({ base_url: null, api_key: null });
      setTest(null);
      toast('Disconnected.');
      return next;
    });
  };
  const runTest = () =>
    act('test', async () => {
      setTest({ ok: true, text: 'Testing…' });
      try {
        const r = await remoteApi.test();
        setTest(
          r.reachable
            ? { ok: true, text: `Reachable in ${Math.round(r.latency_ms ?? 0)} ms: ${r.agent_count ?? 0} agent${r.agent_count === 1 ? '' : 's'} on the remote.` }
            : { ok: false, text: `Not reachable: ${r.error ?? 'no answer'}` },
        );
      } catch (err) {
        setTest({ ok: false, text: `Not reachable: ${messageOf(err)}` });
      }
      // The test records online/offline on the platform.
      await load();
    });
  const sync = () =>
    act('sync', async () => {
      let r;
      try {
        r = await remoteApi.sync();
      } catch (err) {
        // Unreachable (502) is not a failure of the app: the status above shows why, the cache stays.
        if (!(err instanceof ApiError && err.status === 502)) throw err;
        toast('The remote platform could not be reached; its cached agents stay listed.', 'error');
        return remoteApi.settings();
      }
      toast(`Agents refreshed: ${r.synced} listed${r.removed ? `, ${r.removed} removed` : ''}.`);
      return r.settings;
    });

  return (
    <div className="stack" style={{ maxWidth: 720 }}>
      <p className="muted">
        Connect a remote Agent Platform (your team's hosted platform or another Agent Desk). Its agents are listed beside yours, marked <span className="badge badge-remote">remote</span>,
        and run on that platform; conversations are kept here.
      </p>
      <RemoteStatus s={settings} />
      <form
        className="card stack"
        aria-label="Remote platform connection"
        onSubmit={(e) => {
          e.preventDefault();
          if (url.trim()) void save();
        }}
      >
        <label className="field">
          <span>Base URL</span>
          <input type="url" value={url} placeholder="https://team.example.com" onChange={(e) => setUrl(e.target.value)} autoComplete="off" spellCheck={false} />
        </label>
        <label className="field">
          <span>API key</span>
          <input
            type="password"
            value={key}
            placeholder={settings.has_api_key ? 'Leave empty to keep the stored key' : "The remote platform's API key"}
            onChange={(e) => setKey(e.target.value)}
            autoComplete="off"
            data-testid="remote-key"
          />
        </label>
        <div className="row small" data-testid="remote-key-state">
          {settings.has_api_key ? (
            <>
              <span>A key is stored.</span>
              <button type="button" className="btn btn-small" disabled={busy !== null} onClick={removeKey}>
                Remove key
              </button>
            </>
          ) : (
            <span className="muted">No key is stored.</span>
          )}
          <span className="muted" data-testid="remote-key-encryption">
            {settings.key_encrypted ? 'Keys are encrypted at rest with the system keychain.' : 'Keys are stored unencrypted in the data folder (no system keychain here).'}
          </span>
        </div>
        <ErrorNote error={error} />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={busy !== null || !url.trim() || !dirty}>
            {busy === 'save' ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className="btn" disabled={busy !== null || !configured || dirty} onClick={() => void runTest()} title={dirty ? 'Save first: the test uses the saved URL and key.' : undefined}>
            {busy === 'test' ? 'Testing…' : 'Test connection'}
          </button>
          <button type="button" className="btn" disabled={busy !== null || !configured || dirty} onClick={() => void sync()}>
            {busy === 'sync' ? 'Refreshing…' : 'Refresh agents'}
          </button>
          <span className="grow" />
          <button type="button" className="btn btn-danger" disabled={busy !== null || (!settings.base_url && !settings.has_api_key)} onClick={disconnect}>
            Disconnect
          </button>
        </div>
        {dirty && configured ? <p className="muted small">Save first: Test and Refresh use the saved URL and key.</p> : null}
        {test ? (
          <p className={test.ok ? 'small' : 'small note note-error'} role="status" data-testid="remote-test">
            {test.text}
          </p>
        ) : null}
      </form>
    </div>
  );
}
