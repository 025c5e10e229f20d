import { useMemo, useState } from 'react';
import type { ProviderView } from '../../../src-main/platform/contract/settings';
import { api, ops } from '../../api';
import { providerSentence, sentenceOf } from '../../api/field-errors';
import { useSetup } from '../../stores/setup';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { kindLabel, providerLabel } from './providers';
import { useT } from '../../i18n';

const SHOWN_MODELS = 8;

/**
 * One provider: where it is, whether it answers (and why not, in plain words), the models it
 * serves, and its actions: edit in place, test, switch off, remove. `onToggle`/`onRemove` answer
 * the platform's refusal or null.
 */
export function ProviderCard({ provider: p, onEdit, onToggle, onRemove }: { provider: ProviderView; onEdit(): void; onToggle(): Promise<unknown>; onRemove(): Promise<unknown> }) {
  const t = useT();
  const all = useSetup((s) => s.models);
  const models = useMemo(() => all.filter((m) => m.provider === p.id), [all, p.id]);
  const source = useSetup((s) => s.sources.find((x) => x.provider === p.id));
  const checking = useSetup((s) => s.status === 'checking');
  const defaultModel = useSetup((s) => s.defaultModel?.model ?? null);
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const name = providerLabel(p);

  const status = !p.enabled
    ? { tone: 'muted', text: t('settings.providerCard.off') }
    : !source
      ? { tone: 'muted', text: checking ? t('settings.providerCard.checking') : t('settings.providerCard.notChecked') }
      : source.ok
        ? { tone: 'ok', text: t('settings.providerCard.reachable', { count: source.count }) }
        : { tone: 'error', text: t('settings.providerCard.unreachable', { reason: providerSentence(source.error ?? 'No answer within 8 s.') }) };

  const run = async (action: () => Promise<unknown>) => {
    const refused = await action();
    setFailure(refused ? sentenceOf(refused) : null);
  };

  const runTest = async () => {
    setTest({ ok: true, text: t('settings.providerCard.testing') });
    try {
      const r = await api.call(ops.testProvider, { body: { id: p.id } });
      setTest(r.ok ? { ok: true, text: t('settings.providerCard.connected', { ms: Math.round(r.latency_ms), count: r.models.length }) } : { ok: false, text: providerSentence(r.error ?? 'No answer within 8 s.') });
      void useSetup.getState().check({ fresh: true });
    } catch (err) {
      setTest({ ok: false, text: sentenceOf(err) });
    }
  };

  const shown = models.slice(0, SHOWN_MODELS);
  return (
    <article className="card stack provider-card" data-testid="provider" aria-label={name}>
      <div className="row">
        <strong className="grow">{name}</strong>
        <span className="badge">{kindLabel(p.kind)}</span>
        {p.source !== 'settings' ? (
          <span className="badge" title={t('settings.providerCard.sourceTitle')}>
            {p.source === 'env' ? t('settings.providerCard.fromEnv') : p.source === 'auto' ? t('settings.providerCard.detected') : t('settings.providerCard.remote')}
          </span>
        ) : null}
      </div>
      <div className="small provider-where">
        {p.base_url ? <code>{p.base_url}</code> : null}
        {p.models_dir ? <code>{p.models_dir}</code> : null}
        {p.kind !== 'gguf' && p.kind !== 'ollama' ? <span className="muted">{p.has_api_key ? t('settings.providerCard.keySaved') : t('settings.providerCard.noKey')}</span> : null}
      </div>
      <p className={`small provider-status provider-status-${status.tone}`} data-testid="provider-status">
        <span className="provider-dot" aria-hidden="true" />
        {status.text}
      </p>
      {p.enabled && models.length ? (
        <div data-testid="provider-models">
          <ul className="chips" aria-label={t('settings.providerCard.modelsOf', { name })}>
            {shown.map((m) => (
              <li key={m.id} className="chip">
                {m.label}
                {defaultModel === m.id ? <span className="muted"> · {t('settings.providerCard.default')}</span> : null}
              </li>
            ))}
          </ul>
          {models.length > SHOWN_MODELS ? (
            <details className="small">
              <summary>{t('settings.providerCard.allModels', { count: models.length })}</summary>
              <p>{models.map((m) => m.label).join(', ')}</p>
            </details>
          ) : null}
        </div>
      ) : null}
      <div className="row">
        {p.source !== 'registered' ? (
          <button type="button" className="btn btn-small" onClick={onEdit} aria-label={t('settings.providerCard.editName', { name })}>
            {t('common.edit')}
          </button>
        ) : null}
        <button type="button" className="btn btn-small" onClick={() => void runTest()}>
          {t('settings.providerCard.test')}
        </button>
        {p.source !== 'registered' ? (
          <button type="button" className="btn btn-small" onClick={() => void run(onToggle)}>
            {p.enabled ? t('settings.providerCard.switchOff') : t('settings.providerCard.switchOn')}
          </button>
        ) : null}
        {p.source === 'settings' ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setConfirming(true)}
          >
            {t('common.remove')}
          </button>
        ) : null}
        {test ? (
          <span className={test.ok ? 'small' : 'small provider-test-failed'} role="status">
            {test.text}
          </span>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('settings.providerCard.removeTitle', { name })}
        confirmLabel={t('settings.providerCard.removeConfirm')}
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void run(onRemove);
        }}
      >
        <p>{p.has_api_key ? t('settings.providerCard.removeBodyKey') : t('settings.providerCard.removeBody')}</p>
      </ConfirmDialog>
      {failure ? (
        <p className="note note-error small" role="alert">
          {failure}
        </p>
      ) : null}
    </article>
  );
}
