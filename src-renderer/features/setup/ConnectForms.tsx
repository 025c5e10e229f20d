import { useState } from 'react';
import type { ModelSetupBody } from '../../../src-main/platform/contract/models';
import { useT } from '../../i18n';

type Connect = (what: string, body: ModelSetupBody) => Promise<boolean>;

/** An OpenAI-compatible server's URL, an Anthropic key, or a GGUF file on disk. */
export function ConnectForms({ busy, onConnect }: { busy: string | null; onConnect: Connect }) {
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [anthropic, setAnthropic] = useState('');
  const [gguf, setGguf] = useState('');
  const off = busy !== null;
  const t = useT();
  // Each way's name, in sentences ("Connected to the server: …") and as the busy mark.
  const server = t('setup.forms.theServer');
  const folder = t('setup.forms.theFolder');
  return (
    <>
      <article className="card stack setup-card" aria-labelledby="setup-server">
        <h3 id="setup-server">{t('setup.forms.serverTitle')}</h3>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void onConnect(server, { kind: 'openai-compatible', base_url: url.trim(), api_key: key.trim() || null });
          }}
        >
          <label className="field">
            <span>{t('setup.forms.serverUrl')}</span>
            <input type="url" required placeholder="http://127.0.0.1:8080/v1" value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
          <label className="field">
            <span>{t('setup.forms.keyIfNeeded')}</span>
            <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
          </label>
          <div className="row">
            <button type="submit" className="btn btn-primary btn-small" disabled={off || !url.trim()}>
              {busy === server ? t('setup.connecting') : t('setup.connect')}
            </button>
            <span className="muted small">{t('setup.forms.serverExamples')}</span>
          </div>
        </form>
      </article>
      <article className="card stack setup-card" aria-labelledby="setup-anthropic">
        <h3 id="setup-anthropic">{t('setup.forms.anthropicTitle')}</h3>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void onConnect('Anthropic', { kind: 'anthropic', api_key: anthropic.trim() });
          }}
        >
          <label className="field">
            <span>{t('settings.providerForm.apiKey')}</span>
            <input type="password" autoComplete="off" placeholder="sk-ant-…" value={anthropic} onChange={(e) => setAnthropic(e.target.value)} />
          </label>
          <div className="row">
            <button type="submit" className="btn btn-small" disabled={off || !anthropic.trim()}>
              {busy === 'Anthropic' ? t('setup.connecting') : t('setup.connect')}
            </button>
          </div>
        </form>
      </article>
      <article className="card stack setup-card" aria-labelledby="setup-gguf">
        <h3 id="setup-gguf">{t('setup.forms.ggufTitle')}</h3>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void onConnect(folder, { kind: 'gguf', models_dir: gguf.trim() });
          }}
        >
          <label className="field">
            <span>{t('setup.forms.path')}</span>
            <input placeholder={t('setup.forms.pathExample')} value={gguf} onChange={(e) => setGguf(e.target.value)} />
          </label>
          <div className="row">
            <button type="submit" className="btn btn-small" disabled={off || !gguf.trim()}>
              {busy === folder ? t('settings.providerCard.checking') : t('setup.forms.use')}
            </button>
            <span className="muted small">{t('setup.forms.offline')}</span>
          </div>
        </form>
      </article>
    </>
  );
}
