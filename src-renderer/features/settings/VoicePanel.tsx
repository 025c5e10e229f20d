import { useEffect, useId, useState } from 'react';
import { api, ops } from '../../api';
import { wordErrors } from '../../api/field-errors';
import { ErrorNote } from '../../components/ErrorNote';
import { FormError } from '../../components/FieldError';
import { toast } from '../../stores/toasts';
import { useNav } from '../../stores/nav';
import { useVoice } from '../../stores/voice';
import { useT } from '../../i18n';
import type { VoiceSettings } from '../../../src-main/platform/contract/audio';

/**
 * Settings → Voice: which transcription service writes down dictation (any OpenAI-compatible
 * provider: a whisper.cpp server, LocalAI, Speaches, OpenAI), and whether an answer to a dictated
 * question is read aloud by itself.
 */
export function VoicePanel() {
  const t = useT();
  const uid = useId();
  const go = useNav((s) => s.go);
  const [voice, setVoice] = useState<VoiceSettings | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [provider, setProvider] = useState('');
  const [model, setModel] = useState('');
  const [autoRead, setAutoRead] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const show = (v: VoiceSettings) => {
    setVoice(v);
    setProvider(v.transcription.provider ?? '');
    setModel(v.transcription.model ?? '');
    setAutoRead(v.auto_read);
    useVoice.getState().setSettings(v);
  };
  useEffect(() => {
    api.call(ops.getVoiceSettings, {}).then(show, (err: unknown) => setLoadError(err));
  }, []);

  if (!voice) return loadError ? <ErrorNote error={loadError} what={t('voice.heading')} /> : <p className="muted">{t('common.loading')}</p>;
  const label = (id: string | null) => voice.providers.find((p) => p.id === id)?.label ?? id ?? '';
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      show(await api.call(ops.updateVoiceSettings, { body: { transcription: { provider: provider || null, model: provider ? model.trim() || null : null }, auto_read: autoRead } }));
      toast(t('voice.saved'));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="stack" style={{ maxWidth: 760 }} data-testid="voice-panel">
      <p className="muted">{t('voice.intro')}</p>
      <p className={voice.transcription.ready ? 'note note-ok' : 'note note-muted'} role="status" data-testid="voice-state">
        {voice.transcription.ready ? t('voice.inUse', { model: voice.transcription.model ?? '', provider: label(voice.transcription.provider) }) : t('voice.notSet')}
      </p>
      <form
        className="stack card"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h2 className="h3">{t('voice.dictationHeading')}</h2>
        <p className="small muted">{t('voice.dictationIntro')}</p>
        {voice.providers.length ? (
          <>
            <label htmlFor={`${uid}-provider`}>{t('voice.provider')}</label>
            <select id={`${uid}-provider`} value={provider} onChange={(e) => setProvider(e.target.value)} data-testid="voice-provider">
              <option value="">{t('voice.none')}</option>
              {voice.providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
            {provider ? (
              <>
                <label htmlFor={`${uid}-model`}>{t('voice.model')}</label>
                <input id={`${uid}-model`} value={model} onChange={(e) => setModel(e.target.value)} placeholder="whisper-1" aria-describedby={`${uid}-model-hint`} data-testid="voice-model" />
                <p id={`${uid}-model-hint`} className="small muted">
                  {t('voice.modelHint')}
                </p>
              </>
            ) : null}
          </>
        ) : (
          <p className="note note-muted">
            {t('voice.noProviders')}{' '}
            <button type="button" className="btn btn-small btn-link" onClick={() => go('settings', 'providers')}>
              {t('voice.openProviders')}
            </button>
          </p>
        )}
        <h2 className="h3">{t('voice.listeningHeading')}</h2>
        <p className="small muted">{t('voice.listeningIntro')}</p>
        <label className="check">
          <input type="checkbox" checked={autoRead} onChange={(e) => setAutoRead(e.target.checked)} data-testid="voice-auto-read" /> {t('voice.autoRead')}
        </label>
        <FormError worded={firstSentence(wordErrors(error))} error={error} />
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="voice-save">
            {t('voice.save')}
          </button>
        </div>
      </form>
    </div>
  );
}

/** A refused field's sentence stands as the form's own (this form has one place to show it). */
function firstSentence(w: ReturnType<typeof wordErrors>): ReturnType<typeof wordErrors> {
  return { ...w, general: w.general ?? Object.values(w.fields)[0] ?? null };
}
