import { useEffect, useState } from 'react';
import { api, ApiError, messageOf, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { askConfirm } from '../../stores/confirm';
import type { RemoteSettings } from '../../../src-main/platform/contract/remote';
import { useRemote } from '../../stores/remote';
import { RemoteStatus } from './RemoteStatus';
import { providerSentence } from '../../api/field-errors';
import { Trans, t, useT } from '../../i18n';

type TestLine = { ok: boolean; text: string } | null;

/** Settings → Remote: connect another Agent Platform whose agents are listed beside the local ones. */
export function RemotePanel() {
  const { settings, error: loadError, load, set } = useRemote();
  const tr = useT();
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

  if (!settings) return loadError ? <ErrorNote error={loadError} what={tr('settings.remote.what')} /> : <p className="muted">{tr('common.loading')}</p>;
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
      const next = await api.call(ops.updateRemoteSettings, { body: { base_url: url.trim() || null, ...(key.trim() ? { api_key: key.trim() } : {}) } });
      setKey('');
      setTest(null);
      if (next.status === 'online') toast(t('settings.remote.connected', { count: next.agent_count }));
      return next;
    });
  const removeKey = async () => {
    if (!(await askConfirm({ title: t('settings.remote.removeKeyTitle'), body: t('settings.remote.removeKeyBody'), confirmLabel: t('settings.remote.removeKey'), danger: true }))) return;
    void act('remove-key', () => api.call(ops.updateRemoteSettings, { body: { api_key: null } }));
  };
  const disconnect = async () => {
    if (!(await askConfirm({ title: settings.base_url ? t('settings.remote.disconnectTitle', { url: settings.base_url }) : t('settings.remote.disconnectPlatform'), body: t('settings.remote.disconnectBody'), confirmLabel: t('settings.remote.disconnect'), danger: true }))) return;
    void act('disconnect', async () => {
      const next = await api.call(ops.updateRemoteSettings, { body: { base_url: null, api_key: null } });
      setTest(null);
      toast(t('settings.remote.disconnected'));
      return next;
    });
  };
  const runTest = () =>
    act('test', async () => {
      setTest({ ok: true, text: t('settings.providerCard.testing') });
      try {
        const r = await api.call(ops.testRemote, {});
        setTest(
          r.reachable
            ? { ok: true, text: t('settings.remote.reachable', { ms: Math.round(r.latency_ms ?? 0), count: r.agent_count ?? 0 }) }
            : { ok: false, text: t('settings.remote.notReachable', { reason: r.error ? providerSentence(r.error) : t('settings.remote.noAnswer') }) },
        );
      } catch (err) {
        setTest({ ok: false, text: t('settings.remote.notReachable', { reason: messageOf(err) }) });
      }
      // The test records online/offline on the platform.
      await load();
    });
  const sync = () =>
    act('sync', async () => {
      let r;
      try {
        r = await api.call(ops.syncRemote, {});
      } catch (err) {
        // Unreachable (502) is not a failure of the app: the status above shows why, the cache stays.
        if (!(err instanceof ApiError && err.status === 502)) throw err;
        toast(t('settings.remote.syncUnreachable'), 'error');
        return api.call(ops.getRemoteSettings, {});
      }
      toast(r.removed ? t('settings.remote.refreshedRemoved', { count: r.synced, removed: r.removed }) : t('settings.remote.refreshed', { count: r.synced }));
      return r.settings;
    });

  return (
    <div className="stack" style={{ maxWidth: 720 }}>
      <p className="muted">
        <Trans i18nKey="settings.remote.intro" components={{ badge: <span className="badge badge-remote" /> }} />
      </p>
      <RemoteStatus s={settings} />
      <form
        className="card stack"
        aria-label={tr('settings.remote.connection')}
        onSubmit={(e) => {
          e.preventDefault();
          if (url.trim()) void save();
        }}
      >
        <label className="field">
          <span>{tr('settings.providerForm.baseUrl')}</span>
          <input type="url" value={url} placeholder="https://team.example.com" onChange={(e) => setUrl(e.target.value)} autoComplete="off" spellCheck={false} />
        </label>
        <label className="field">
          <span>{tr('settings.providerForm.apiKey')}</span>
          <input
            type="password"
            value={key}
            placeholder={settings.has_api_key ? tr('settings.remote.keepKey') : tr('settings.remote.keyPlaceholder')}
            onChange={(e) => setKey(e.target.value)}
            autoComplete="off"
            data-testid="remote-key"
          />
        </label>
        <div className="row small" data-testid="remote-key-state">
          {settings.has_api_key ? (
            <>
              <span>{tr('settings.remote.keyStored')}</span>
              <button type="button" className="btn btn-small" disabled={busy !== null} onClick={removeKey}>
                {tr('settings.remote.removeKey')}
              </button>
            </>
          ) : (
            <span className="muted">{tr('settings.remote.noKey')}</span>
          )}
          <span className="muted" data-testid="remote-key-encryption">
            {settings.key_encrypted ? tr('settings.remote.encrypted') : tr('settings.remote.unencrypted')}
          </span>
        </div>
        <ErrorNote error={error} />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={busy !== null || !url.trim() || !dirty}>
            {busy === 'save' ? tr('settings.remote.saving') : tr('common.save')}
          </button>
          <button type="button" className="btn" disabled={busy !== null || !configured || dirty} onClick={() => void runTest()} title={dirty ? tr('settings.remote.saveFirstTest') : undefined}>
            {busy === 'test' ? tr('settings.providerCard.testing') : tr('settings.providerCard.test')}
          </button>
          <button type="button" className="btn" disabled={busy !== null || !configured || dirty} onClick={() => void sync()}>
            {busy === 'sync' ? tr('settings.remote.refreshing') : tr('settings.remote.refresh')}
          </button>
          <span className="grow" />
          <button type="button" className="btn btn-danger" disabled={busy !== null || (!settings.base_url && !settings.has_api_key)} onClick={disconnect}>
            {tr('settings.remote.disconnect')}
          </button>
        </div>
        {dirty && configured ? <p className="muted small">{tr('settings.remote.saveFirst')}</p> : null}
        {test ? (
          <p className={test.ok ? 'small' : 'small note note-error'} role="status" data-testid="remote-test">
            {test.text}
          </p>
        ) : null}
      </form>
    </div>
  );
}
