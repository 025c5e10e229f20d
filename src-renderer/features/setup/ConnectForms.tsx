import { useState, type ReactNode } from 'react';
import type { ModelSetupBody } from '../../../src-main/platform/contract/models';
import { useT } from '../../i18n';

type Connect = (what: string, body: ModelSetupBody) => Promise<boolean>;

/** An OpenAI-compatible server's URL, an Anthropic key, or a GGUF file on disk. */
export function ConnectForms({ busy, onConnect }: { busy: string | null; onConnect: Connect }) {
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [anthropic, setAnthropic] = useState('');
  const [gguf, setGguf] = useState('');
  const t = useT();
  // Each way's name, in sentences ("Connected to the server: …") and as the busy mark.
  const server = t('setup.forms.theServer');
  const folder = t('setup.forms.theFolder');
  return (
    <>
      <ConnectCard
        id="setup-server"
        title={t('setup.forms.serverTitle')}
        what={server}
        busy={busy}
        ready={!!url.trim()}
        primary
        onConnect={() => onConnect(server, { kind: 'openai-compatible', base_url: url.trim(), api_key: key.trim() || null })}
        note={t('setup.forms.serverExamples')}
      >
        <label className="field">
          <span>{t('setup.forms.serverUrl')}</span>
          <input type="url" required placeholder="http://127.0.0.1:8080/v1" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('setup.forms.keyIfNeeded')}</span>
          <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
        </label>
      </ConnectCard>
      <ConnectCard id="setup-anthropic" title={t('setup.forms.anthropicTitle')} what="Anthropic" busy={busy} ready={!!anthropic.trim()} onConnect={() => onConnect('Anthropic', { kind: 'anthropic', api_key: anthropic.trim() })}>
        <label className="field">
          <span>{t('settings.providerForm.apiKey')}</span>
          <input type="password" autoComplete="off" placeholder="sk-ant-…" value={anthropic} onChange={(e) => setAnthropic(e.target.value)} />
        </label>
      </ConnectCard>
      <ConnectCard
        id="setup-gguf"
        title={t('setup.forms.ggufTitle')}
        what={folder}
        busy={busy}
        ready={!!gguf.trim()}
        onConnect={() => onConnect(folder, { kind: 'gguf', models_dir: gguf.trim() })}
        label={t('setup.forms.use')}
        busyLabel={t('settings.providerCard.checking')}
        note={t('setup.forms.offline')}
      >
        <label className="field">
          <span>{t('setup.forms.path')}</span>
          <input placeholder={t('setup.forms.pathExample')} value={gguf} onChange={(e) => setGguf(e.target.value)} />
        </label>
      </ConnectCard>
    </>
  );
}

/**
 * One way to connect: a titled card whose form sends its body once filled in; its button says
 * so while that way is the one connecting, and every button waits while any is.
 */
function ConnectCard(props: {
  id: string;
  title: string;
  /** The way's name, as `busy` names the one connecting. */
  what: string;
  busy: string | null;
  ready: boolean;
  primary?: boolean;
  onConnect(): Promise<boolean>;
  label?: string;
  busyLabel?: string;
  note?: string;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <article className="card stack setup-card" aria-labelledby={props.id}>
      <h3 id={props.id}>{props.title}</h3>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void props.onConnect();
        }}
      >
        {props.children}
        <div className="row">
          <button type="submit" className={props.primary ? 'btn btn-primary btn-small' : 'btn btn-small'} disabled={props.busy !== null || !props.ready}>
            {props.busy === props.what ? (props.busyLabel ?? t('setup.connecting')) : (props.label ?? t('setup.connect'))}
          </button>
          {props.note ? <span className="muted small">{props.note}</span> : null}
        </div>
      </form>
    </article>
  );
}
