import { useEffect } from 'react';
import { useVoice } from '../../stores/voice';
import { useNav } from '../../stores/nav';
import { useT } from '../../i18n';
import './dictation.css';

/**
 * The composer's microphone: records while on (or while Alt+D is held), shows the level and the
 * time, and puts what was said into the message box for the person to edit before sending.
 */
export function DictationButton({ put, disabled }: { put: (text: string) => void; disabled?: boolean }) {
  const t = useT();
  const dictation = useVoice((s) => s.dictation);

  useEffect(() => {
    void useVoice.getState().loadSettings();
  }, []);

  // Push to talk: Alt+D held records, let go writes it down.
  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyD' || e.repeat) return;
      e.preventDefault();
      void useVoice.getState().startDictation(put);
    };
    const up = (e: KeyboardEvent) => {
      if (e.code !== 'KeyD' && e.key !== 'Alt') return;
      if (useVoice.getState().dictation === 'recording') useVoice.getState().finishDictation();
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, [put]);

  const recording = dictation === 'recording';
  return (
    <button
      type="button"
      className={recording ? 'btn btn-danger' : 'btn'}
      aria-pressed={recording}
      title={t('voice.dictateHint')}
      disabled={disabled || dictation === 'transcribing'}
      data-testid="dictate"
      onClick={() => (recording ? useVoice.getState().finishDictation() : void useVoice.getState().startDictation(put))}
    >
      {recording ? t('voice.stopDictating') : t('voice.dictate')}
    </button>
  );
}

/** Above the message box: the recording's level and time, "Writing down…", or why dictation could not be used. */
export function DictationNotice() {
  const t = useT();
  const { dictation, level, elapsed, problem } = useVoice();
  const go = useNav((s) => s.go);
  const sentence =
    problem === null ? null
    : problem === 'setup' ? t('voice.setupNeeded')
    : problem === 'tooLong' ? t('voice.tooLong')
    : problem === 'tooLarge' ? t('voice.tooLarge')
    : problem === 'noMic' ? t('voice.noMic')
    : problem === 'nothing' ? t('voice.nothingHeard')
    : t('voice.failed', { reason: problem.failed });
  if (dictation === 'recording') {
    return (
      <p className="dictation-live small" role="status" data-testid="dictation-status">
        <span className="dictation-level" role="meter" aria-label={t('voice.level')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)}>
          <span style={{ width: `${Math.round(level * 100)}%` }} />
        </span>
        {t('voice.recording', { elapsed: minutesSeconds(elapsed) })}
      </p>
    );
  }
  if (dictation === 'transcribing') {
    return (
      <p className="small muted dictation-live" role="status" data-testid="dictation-status">
        {t('voice.transcribing')}
      </p>
    );
  }
  if (!sentence) return null;
  return (
    <p className="small dictation-problem" role="alert" data-testid="dictation-problem">
      {sentence}{' '}
      {problem === 'setup' ? (
        <button type="button" className="btn btn-small btn-link" onClick={() => go('settings', 'voice')}>
          {t('voice.setupLink')}
        </button>
      ) : null}{' '}
      <button type="button" className="btn btn-small btn-ghost" onClick={() => useVoice.getState().clearProblem()}>
        {t('voice.close')}
      </button>
    </p>
  );
}

/** "1:05": minutes and seconds, as recorders show them. */
function minutesSeconds(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
