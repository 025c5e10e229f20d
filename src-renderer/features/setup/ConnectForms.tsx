import { useState } from 'react';
import type { ModelSetupBody } from '../../../src-main/platform/contract/models';

type Connect = (what: string, body: ModelSetupBody) => Promise<boolean>;

/** An OpenAI-compatible server's URL, an Anthropic key, or a GGUF file on disk. */
export function ConnectForms({ busy, onConnect }: { busy: string | null; onConnect: Connect }) {
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [anthropic, setAnthropic] = useState('');
  const [gguf, setGguf] = useState('');
  const off = busy !== null;
  return (
    <>
      <article className="card stack setup-card" aria-labelledby="setup-server">
        <h3 id="setup-server">An OpenAI-compatible server</h3>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void onConnect('the server', { kind: 'openai-compatible', base_url: url.trim(), api_key: key.trim() || null });
          }}
        >
          <label className="field">
            <span>Server URL</span>
            <input type="url" required placeholder="http://127.0.0.1:8080/v1" value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
          <label className="field">
            <span>API key (if it needs one)</span>
            <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
          </label>
          <div className="row">
            <button type="submit" className="btn btn-primary btn-small" disabled={off || !url.trim()}>
              {busy === 'the server' ? 'Connecting…' : 'Connect'}
            </button>
            <span className="muted small">llama.cpp, vLLM, LocalAI, OpenAI, OpenRouter…</span>
          </div>
        </form>
      </article>
      <article className="card stack setup-card" aria-labelledby="setup-anthropic">
        <h3 id="setup-anthropic">Anthropic (Claude)</h3>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void onConnect('Anthropic', { kind: 'anthropic', api_key: anthropic.trim() });
          }}
        >
          <label className="field">
            <span>API key</span>
            <input type="password" autoComplete="off" placeholder="sk-ant-…" value={anthropic} onChange={(e) => setAnthropic(e.target.value)} />
          </label>
          <div className="row">
            <button type="submit" className="btn btn-small" disabled={off || !anthropic.trim()}>
              {busy === 'Anthropic' ? 'Connecting…' : 'Connect'}
            </button>
          </div>
        </form>
      </article>
      <article className="card stack setup-card" aria-labelledby="setup-gguf">
        <h3 id="setup-gguf">A GGUF file on disk</h3>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void onConnect('the models folder', { kind: 'gguf', models_dir: gguf.trim() });
          }}
        >
          <label className="field">
            <span>File or folder path</span>
            <input placeholder="/home/me/models/model.gguf" value={gguf} onChange={(e) => setGguf(e.target.value)} />
          </label>
          <div className="row">
            <button type="submit" className="btn btn-small" disabled={off || !gguf.trim()}>
              {busy === 'the models folder' ? 'Checking…' : 'Use'}
            </button>
            <span className="muted small">Runs on this computer, offline.</span>
          </div>
        </form>
      </article>
    </>
  );
}
