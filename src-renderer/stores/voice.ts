import { create } from 'zustand';
import { api, ops } from '../api';
import { currentLocale } from '../i18n';
import { selectTurns, useConversation } from './conversation';
import type { VoiceSettings } from '../../src-main/platform/contract/audio';

/**
 * Voice: answers read aloud with the system's voices (speechSynthesis), one sentence-sized chunk
 * at a time so Stop is immediate, and dictation recorded with MediaRecorder and written down by
 * the platform's transcription door.
 */

/** At most this many characters per utterance: a long one cannot be stopped between sentences. */
const CHUNK_CHARS = 220;
export const MAX_RECORDING_MS = 10 * 60 * 1000;
export const MAX_RECORDING_BYTES = 25 * 1024 * 1024;

/** Markdown as a voice reads it: code blocks left out, links by their words, marks dropped. */
export function speakable(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^[ \t]{0,3}(#{1,6}|>|[-*+]|\d+[.)])[ \t]+/gm, '')
    .replace(/[*_~|]+/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Shorter pieces are joined to the next one, so a voice does not pause after every word. */
const MIN_CHUNK_CHARS = 40;

/** One utterance per sentence (fragments joined); a sentence longer than CHUNK_CHARS is cut at commas, then spaces. */
export function chunksOf(text: string): string[] {
  const sentences = text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?…;:])\s+/))
    .map((s) => s.trim())
    .filter(Boolean);
  const pieces: string[] = [];
  for (const s of sentences) {
    if (s.length <= CHUNK_CHARS) {
      pieces.push(s);
      continue;
    }
    let rest = s;
    while (rest.length > CHUNK_CHARS) {
      const window = rest.slice(0, CHUNK_CHARS);
      // At a comma when there is one far enough in, else at a space.
      const comma = window.lastIndexOf(', ');
      const cut = comma > CHUNK_CHARS / 3 ? comma + 1 : window.lastIndexOf(' ');
      const at = cut > CHUNK_CHARS / 3 ? cut + (window[cut] === ' ' ? 1 : 0) : CHUNK_CHARS;
      pieces.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (rest) pieces.push(rest);
  }
  const out: string[] = [];
  for (const p of pieces) {
    const last = out.length - 1;
    // A fragment ("Yes." "1.") joins the next sentence; a sentence is otherwise one utterance.
    if (last >= 0 && out[last].length < MIN_CHUNK_CHARS && out[last].length + 1 + p.length <= CHUNK_CHARS) out[last] = `${out[last]} ${p}`;
    else out.push(p);
  }
  return out;
}

const PT = /\b(que|não|você|para|com|uma|são|está|também|isso|mais|como|por|muito|então|já)\b/gi;
const EN = /\b(the|and|you|that|with|for|this|are|is|not|have|what|can|will|from|your)\b/gi;

/** The language an answer is written in, when it is clearly Portuguese or English; else the app's. */
export function languageOf(text: string, locale = currentLocale()): 'pt-BR' | 'en-US' {
  const sample = text.slice(0, 2000);
  const pt = sample.match(PT)?.length ?? 0;
  const en = sample.match(EN)?.length ?? 0;
  if (pt >= 3 && pt > en * 2) return 'pt-BR';
  if (en >= 3 && en > pt * 2) return 'en-US';
  return locale === 'pt-BR' ? 'pt-BR' : 'en-US';
}

function voiceFor(lang: string): SpeechSynthesisVoice | null {
  const voices = window.speechSynthesis.getVoices();
  return voices.find((v) => v.lang === lang) ?? voices.find((v) => v.lang.slice(0, 2) === lang.slice(0, 2)) ?? null;
}

type DictationState = 'idle' | 'recording' | 'transcribing';

interface VoiceStore {
  /** the answer being read (its turn key), or null */
  reading: string | null;
  settings: VoiceSettings | null;
  dictation: DictationState;
  /** 0..1, the microphone's loudness while recording */
  level: number;
  /** ms since the recording started */
  elapsed: number;
  /** a sentence about the last dictation problem */
  problem: 'setup' | 'tooLong' | 'tooLarge' | 'noMic' | 'nothing' | { failed: string } | null;
  /** turn keys present when a dictated text went into the message box: the next new answer is read (auto-read) */
  armed: Set<string> | null;
  read(key: string, markdown: string): void;
  stop(): void;
  loadSettings(): Promise<VoiceSettings | null>;
  setSettings(s: VoiceSettings): void;
  startDictation(put: (text: string) => void): Promise<void>;
  finishDictation(): void;
  cancelDictation(): void;
  clearProblem(): void;
  disarm(): void;
}

/** Which reading is current: a Stop or a new reading makes the old one's callbacks do nothing. */
let readingToken = 0;
let recorder: { media: MediaRecorder; stream: MediaStream; audio: AudioContext; timer: number; refused: DictationProblem | null; put: (text: string) => void } | null = null;
type DictationProblem = 'tooLong' | 'tooLarge';

export const useVoice = create<VoiceStore>((set, get) => ({
  reading: null,
  settings: null,
  dictation: 'idle',
  level: 0,
  elapsed: 0,
  problem: null,
  armed: null,

  read(key, markdown) {
    const synth = window.speechSynthesis;
    const token = ++readingToken;
    synth.cancel();
    const lang = languageOf(markdown);
    const chunks = chunksOf(speakable(markdown));
    if (!chunks.length) return set({ reading: null });
    set({ reading: key });
    // One utterance queued at a time: cancel() then has nothing left to say.
    const next = (i: number) => {
      if (token !== readingToken) return;
      if (i >= chunks.length) return set({ reading: null });
      const u = new SpeechSynthesisUtterance(chunks[i]);
      u.lang = lang;
      const v = voiceFor(lang);
      if (v) u.voice = v;
      u.onend = () => next(i + 1);
      u.onerror = () => {
        if (token === readingToken) set({ reading: null });
      };
      synth.speak(u);
    };
    next(0);
  },

  stop() {
    readingToken++;
    window.speechSynthesis.cancel();
    set({ reading: null });
  },

  async loadSettings() {
    try {
      const s = await api.call(ops.getVoiceSettings, {});
      set({ settings: s });
      return s;
    } catch {
      return get().settings;
    }
  },
  setSettings: (s) => set({ settings: s }),

  async startDictation(put) {
    if (recorder || get().dictation !== 'idle') return;
    const s = get().settings ?? (await get().loadSettings());
    if (!s?.transcription.ready) return set({ problem: 'setup' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      return set({ problem: 'noMic' });
    }
    const type = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm'].find((m) => MediaRecorder.isTypeSupported(m));
    const media = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const chunks: Blob[] = [];
    let bytes = 0;
    const audio = new AudioContext();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 512;
    audio.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    const started = performance.now();
    const timer = window.setInterval(() => {
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const x of samples) sum += ((x - 128) / 128) ** 2;
      const elapsed = performance.now() - started;
      set({ level: Math.min(1, Math.sqrt(sum / samples.length) * 4), elapsed });
      if (elapsed > MAX_RECORDING_MS && recorder) {
        recorder.refused = 'tooLong';
        media.stop();
      }
    }, 100);
    recorder = { media, stream, audio, timer, refused: null, put };
    media.ondataavailable = (e) => {
      chunks.push(e.data);
      bytes += e.data.size;
      if (bytes > MAX_RECORDING_BYTES && recorder && media.state === 'recording') {
        recorder.refused = 'tooLarge';
        media.stop();
      }
    };
    media.onstop = () => {
      const r = recorder;
      recorder = null;
      window.clearInterval(timer);
      stream.getTracks().forEach((tr) => tr.stop());
      void audio.close();
      if (!r || (r.refused === null && bytes === 0)) return set({ dictation: 'idle', level: 0, problem: r ? 'nothing' : null });
      if (r.refused) return set({ dictation: 'idle', level: 0, problem: r.refused });
      set({ dictation: 'transcribing', level: 0 });
      const blob = new Blob(chunks, { type: media.mimeType || 'audio/webm' });
      const ext = blob.type.includes('ogg') ? 'ogg' : 'webm';
      api.upload(ops.createTranscription, { form: { model: 'default', language: currentLocale().slice(0, 2), file: new File([blob], `dictation.${ext}`, { type: blob.type }) } }).then(
        (out) => {
          const text = out.text.trim();
          if (!text) return set({ dictation: 'idle', problem: 'nothing' });
          r.put(text);
          const keys = new Set(selectTurns(useConversation.getState()).map((x) => x.key));
          set({ dictation: 'idle', problem: null, armed: get().settings?.auto_read ? keys : null });
        },
        (err: unknown) => {
          const status = (err as { status?: number }).status;
          if (status === 413) return set({ dictation: 'idle', problem: 'tooLarge' });
          if (status === 404) return set({ dictation: 'idle', problem: 'setup' });
          set({ dictation: 'idle', problem: { failed: err instanceof Error ? err.message : String(err) } });
        },
      );
    };
    media.start(1000);
    set({ dictation: 'recording', elapsed: 0, level: 0, problem: null });
  },

  finishDictation() {
    if (recorder && recorder.media.state === 'recording') recorder.media.stop();
  },

  cancelDictation() {
    if (!recorder) return;
    recorder.refused = null;
    recorder.put = () => {};
    recorder.media.stop();
  },

  clearProblem: () => set({ problem: null }),
  disarm: () => set({ armed: null }),
}));
