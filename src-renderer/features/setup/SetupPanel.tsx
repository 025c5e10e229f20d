import { useState } from 'react';
import type { ModelSetupBody } from '../../../src-main/platform/contract/models';
import { api, messageOf, ops } from '../../api';
import { providerSentence } from '../../api/field-errors';
import { toast } from '../../stores/toasts';
import { useSetup } from '../../stores/setup';
import { LocalServers } from './LocalServers';
import { ConnectForms } from './ConnectForms';
import { ModelDownloads } from './ModelDownloads';
import './setup.css';
import { t, useT } from '../../i18n';

/**
 * First run: no provider serves a model yet, so Chat offers the ways to get one instead of a
 * message box that would fail after Send. One click adds a provider; the chat is ready at once.
 */
export function SetupPanel() {
  const check = useSetup((s) => s.check);
  const tr = useT();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const connect = async (what: string, body: ModelSetupBody): Promise<boolean> => {
    setBusy(what);
    setError(null);
    try {
      const r = await api.call(ops.setupModels, { body });
      if (!r.ok || !r.models.length) {
        setError(r.ok ? t('setup.noModelYet', { what }) : providerSentence(r.error ?? 'No answer within 8 s.'));
        return false;
      }
      toast(t('setup.connected', { what, count: r.models.length, model: r.default.model ?? r.models[0].id }));
      await check();
      focusMessageBox();
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="setup" aria-labelledby="setup-title" data-testid="setup-panel">
      <header className="setup-head">
        <h2 id="setup-title">{tr('setup.title')}</h2>
        <p className="muted">{tr('setup.intro')}</p>
      </header>
      {error ? (
        <p className="note note-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="setup-grid">
        <LocalServers busy={busy} onUse={(name, body) => void connect(name, body)} />
        <ConnectForms busy={busy} onConnect={connect} />
        <ModelDownloads onReady={() => void check({ fresh: true }).then(focusMessageBox)} />
      </div>
    </section>
  );
}

/**
 * Once a model is ready the panel gives way to the message box: focus goes there (what comes next
 * is typing), not to the page the removed button leaves it on. The box may be drawn a moment later.
 */
function focusMessageBox(): void {
  const focus = () => {
    const box = document.getElementById('chat-input');
    box?.focus();
    return !!box;
  };
  if (focus()) return;
  const watch = new MutationObserver(() => focus() && watch.disconnect());
  watch.observe(document.body, { childList: true, subtree: true });
  setTimeout(() => watch.disconnect(), 10_000);
}
