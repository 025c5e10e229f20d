import { useEffect } from 'react';
import { useVoice } from '../../stores/voice';
import { selectTurns, useConversation } from '../../stores/conversation';
import { useT } from '../../i18n';

/** "Read aloud" on a finished answer (Stop while it is read); reads by itself after a dictated question when auto-read is on. */
export function ReadAloudButton({ turnKey, text }: { turnKey: string; text: string }) {
  const t = useT();
  const last = useConversation((s) => selectTurns(s).at(-1)?.key === turnKey);
  // The latest answer's button owns the shortcut (one listener in the window).
  useReadAloudShortcut(last ? turnKey : null, text);
  const reading = useVoice((s) => s.reading === turnKey);
  const armed = useVoice((s) => s.armed);
  useEffect(() => {
    if (last && armed && !armed.has(turnKey)) {
      useVoice.getState().disarm();
      useVoice.getState().read(turnKey, text);
    }
  }, [last, armed, turnKey, text]);
  if (typeof window === 'undefined' || !('speechSynthesis' in window)) return null;
  return (
    <button
      type="button"
      className="btn btn-small btn-ghost"
      aria-pressed={reading}
      data-testid="read-aloud"
      onClick={() => (reading ? useVoice.getState().stop() : useVoice.getState().read(turnKey, text))}
    >
      {reading ? t('voice.stopReading') : t('voice.readAloud')}
    </button>
  );
}

/** Alt+R reads the latest finished answer aloud, and stops it when pressed again. */
function useReadAloudShortcut(latest: string | null, text: string) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyR') return;
      e.preventDefault();
      const v = useVoice.getState();
      if (v.reading) v.stop();
      else if (latest) v.read(latest, text);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [latest, text]);
}
