import fs from 'node:fs';
import type { ServiceContext } from '../../kernel/context.js';
import type { SettingsService } from '../../kernel/settings.js';
import { PlatformError, ValidationError } from '../../kernel/errors.js';
import type { ProvidersService } from '../providers/service.js';
import { TranscriptionFields, type Transcription, type VoiceSettings, type VoiceSettingsUpdate } from '../../contract/audio.js';

/** The audio as the multipart receiver left it: a private temp file, and the form's other fields. */
export interface ReceivedAudio {
  tmpPath: string;
  filename: string;
  bytes: number;
  fields: Record<string, string>;
}

declare module '../../kernel/settings.js' {
  interface SettingsMap {
    'voice.transcription': { provider: string | null; model: string | null } | null;
    'voice.auto_read': boolean;
  }
}

/** How long a provider may take to transcribe one file (AGENT_DESK_TRANSCRIPTION_DEADLINE_S, default 120 s). */
const DEFAULT_DEADLINE_MS = 120_000;
/** Bounds the provider's answer read back (a transcript of 10 minutes is a few dozen KB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** OpenAI's dialect answers it as a 400 naming `param` (invalid_value). */
const invalid = (param: string, message: string) => ValidationError.field(param, message);

/**
 * Transcription for dictation and for `/v1/audio/transcriptions`: the audio goes to the OpenAI-
 * compatible provider chosen in Settings → Voice (whisper.cpp's server, LocalAI, Speaches,
 * OpenAI). The bytes live only in a temporary file for the length of the request.
 */
export class AudioService {
  private readonly deadlineMs: number;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsService,
    private readonly providers: ProvidersService,
  ) {
    const s = Number(ctx.config.env.AGENT_DESK_TRANSCRIPTION_DEADLINE_S);
    this.deadlineMs = Number.isFinite(s) && s > 0 ? s * 1000 : DEFAULT_DEADLINE_MS;
  }

  voice(): VoiceSettings {
    const set = this.settings.get('voice.transcription', null);
    const providers = this.providers.openAIEndpoints().map((p) => ({ id: p.id, label: p.label }));
    const ready = !!set?.provider && !!set.model && providers.some((p) => p.id === set.provider);
    return {
      transcription: { provider: set?.provider ?? null, model: set?.model ?? null, ready },
      auto_read: this.settings.get('voice.auto_read', false),
      providers,
    };
  }

  updateVoice(body: VoiceSettingsUpdate): VoiceSettings {
    if (body.transcription) {
      const { provider, model } = body.transcription;
      if (provider && !this.providers.openAIEndpoints().some((p) => p.id === provider)) {
        throw ValidationError.field('transcription.provider', 'Transcription needs an enabled OpenAI-compatible provider (whisper.cpp server, LocalAI, Speaches or OpenAI); add it under Providers first.');
      }
      if (provider && !model) throw ValidationError.field('transcription.model', 'Name the transcription model the provider serves (for example whisper-1).');
      this.settings.set('voice.transcription', provider ? { provider, model } : null);
    }
    if (body.auto_read !== undefined) this.settings.set('voice.auto_read', body.auto_read);
    return this.voice();
  }

  /**
   * Forwards one received file to the transcription provider and answers OpenAI's shape; the temp
   * file is removed whatever happens. `signal` is the client's: its leaving stops the upstream call.
   */
  async transcribe(part: ReceivedAudio, signal: AbortSignal): Promise<{ format: 'json' | 'text' | 'verbose_json'; body: Transcription }> {
    try {
      const parsed = TranscriptionFields.safeParse(part.fields);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const param = String(issue.path[0] ?? 'model');
        throw invalid(param, param === 'model' ? 'Name the transcription `model` (for example whisper-1).' : `\`${param}\` is not valid: ${issue.message}`);
      }
      if (part.bytes === 0) throw invalid('file', 'The audio file is empty.');
      const fields = parsed.data;
      const set = this.settings.get('voice.transcription', null);
      const endpoint = set?.provider ? this.providers.openAIEndpoints().find((p) => p.id === set.provider) : undefined;
      if (!set?.model || !endpoint) {
        throw new PlatformError(404, 'No transcription is set up: choose an OpenAI-compatible provider and its transcription model in Settings → Voice.', 'model_not_found');
      }
      // The configured model answers for the app's own name for it ("default") and for itself; another name is the client's choice, passed on.
      const model = fields.model === 'default' ? set.model : fields.model;
      const form = new FormData();
      form.append('file', await fs.openAsBlob(part.tmpPath), part.filename || 'audio.webm');
      form.append('model', model);
      if (fields.language) form.append('language', fields.language);
      if (fields.prompt) form.append('prompt', fields.prompt);
      if (fields.temperature) form.append('temperature', fields.temperature);
      // Asked as JSON either way: `text` is answered from its `text`.
      form.append('response_format', fields.response_format === 'verbose_json' ? 'verbose_json' : 'json');
      const body = await this.post(endpoint, form, signal);
      return { format: fields.response_format, body };
    } finally {
      await fs.promises.rm(part.tmpPath, { force: true });
    }
  }

  private async post(endpoint: { label: string; baseUrl: string; apiKey: string | null }, form: FormData, client: AbortSignal): Promise<Transcription> {
    const deadline = AbortSignal.timeout(this.deadlineMs);
    const signal = AbortSignal.any([client, deadline]);
    const down = (detail: string, status = 502) => new PlatformError(status, `${endpoint.label} could not transcribe the audio: ${detail} Check Settings → Voice.`, 'transcription_failed');
    let res: Response;
    try {
      res = await fetch(`${endpoint.baseUrl}/audio/transcriptions`, {
        method: 'POST',
        body: form,
        headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
        signal,
        redirect: 'error',
      });
    } catch {
      if (client.aborted) throw new PlatformError(499, 'The client closed the request before its transcription was ready.', 'client_closed');
      if (deadline.aborted) throw down(`no answer within ${Math.round(this.deadlineMs / 1000)} seconds.`, 504);
      throw down('it could not be reached.');
    }
    const text = await readBounded(res, signal).catch(() => null);
    if (text === null) throw down('its answer was cut off or too large.');
    if (!res.ok) {
      let message = '';
      try {
        message = String((JSON.parse(text) as { error?: { message?: unknown } }).error?.message ?? '');
      } catch {
        /* not JSON: the status says enough */
      }
      const said = message ? ` (${message.slice(0, 300)})` : '';
      // The provider refusing the audio itself is the client's file, not the provider's fault.
      if ([400, 415, 422].includes(res.status)) throw invalid('file', `${endpoint.label} could not read the audio${said}: send a recording in a format it takes (webm, ogg, wav, mp3, m4a, flac).`);
      throw down(`it answered ${res.status}${said}.`);
    }
    try {
      const out = JSON.parse(text) as Transcription;
      if (typeof out?.text !== 'string') throw new Error('no text');
      return out;
    } catch {
      throw down('its answer held no transcript.');
    }
  }
}

/** The answer's text, refusing one over MAX_ANSWER_BYTES. */
async function readBounded(res: Response, signal: AbortSignal): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    signal.throwIfAborted();
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error('too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
