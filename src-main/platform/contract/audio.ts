import { z } from 'zod';
import { operations } from './operation.js';
import { OpenAIErrorBody } from './openai.js';
import { ErrorBody } from './common.js';

/**
 * ext `POST /v1/audio/transcriptions` (CONTRACT.md "Locale and voice"), in OpenAI's shapes: the
 * audio is streamed to a temporary file by the one multipart receiver, forwarded to the provider
 * that serves transcription, and removed; its bytes are never logged or kept.
 */

/** OpenAI's own limit on one audio file. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
export const TRANSCRIPTION_FORMATS = ['json', 'text', 'verbose_json'] as const;

/** The multipart form, for the OpenAPI document (the body itself is streamed, not parsed by zod). */
export const TranscriptionUpload = z
  .object({
    file: z.string().meta({ format: 'binary', description: 'The audio (at most 25 MB): webm, ogg, wav, mp3, m4a, flac…' }),
    model: z.string().meta({ description: 'The transcription model; the configured default transcription model answers for any name its provider does not list.' }),
    language: z.string().optional().meta({ description: 'ISO-639-1 language of the audio (e.g. `pt`).' }),
    prompt: z.string().optional(),
    response_format: z.enum(TRANSCRIPTION_FORMATS).optional(),
    temperature: z.string().optional(),
  })
  .meta({ id: 'TranscriptionUpload' });

/** The non-file fields as multipart delivers them (strings). */
export const TranscriptionFields = z.object({
  model: z.string().trim().min(1).max(256),
  language: z.string().trim().max(16).optional(),
  prompt: z.string().max(4096).optional(),
  response_format: z.enum(TRANSCRIPTION_FORMATS).optional().default('json'),
  temperature: z.string().max(16).optional(),
});
export type TranscriptionFields = z.infer<typeof TranscriptionFields>;

export const Transcription = z.looseObject({ text: z.string() }).meta({ id: 'Transcription' });
export type Transcription = z.infer<typeof Transcription>;

/** ext: which provider transcribes, and the renderer's voice preferences (Settings → Voice). */
export const VoiceSettings = z
  .object({
    transcription: z.object({
      /** an enabled OpenAI-compatible provider's id, or null (no transcription set up) */
      provider: z.string().nullable(),
      /** the model asked of it (e.g. `whisper-1`) */
      model: z.string().nullable(),
      /** whether dictation can be used now */
      ready: z.boolean(),
    }),
    /** read an answer aloud when its question was dictated */
    auto_read: z.boolean(),
    /** the providers that can serve transcription (OpenAI-compatible ones) */
    providers: z.array(z.object({ id: z.string(), label: z.string() })),
  })
  .meta({ id: 'VoiceSettings' });
export type VoiceSettings = z.infer<typeof VoiceSettings>;

export const VoiceSettingsUpdate = z
  .object({
    transcription: z.object({ provider: z.string().trim().min(1).max(128).nullable(), model: z.string().trim().min(1).max(256).nullable() }).optional(),
    auto_read: z.boolean().optional(),
  })
  .meta({ id: 'VoiceSettingsUpdate' });
export type VoiceSettingsUpdate = z.infer<typeof VoiceSettingsUpdate>;

/** `POST /v1/audio/transcriptions` (modules/audio/routes.ts handles it). */
export const audioOperations = operations({
  createTranscription: {
    method: 'post',
    base: '/v1',
    path: '/audio/transcriptions',
    tags: ['OpenAI-compatible'],
    summary: 'Transcribe audio (multipart `file`, at most 25 MB) with the provider set up in Settings → Voice; `response_format` json, text or verbose_json',
    upload: { contentType: 'multipart/form-data', schema: TranscriptionUpload },
    response: Transcription,
    dialect: 'openai',
    errors: {
      400: ['Invalid request: no `file`, an empty file, or a bad field (`param` names it)', OpenAIErrorBody],
      401: ['Missing or invalid key', OpenAIErrorBody],
      404: ['No transcription is set up (`model_not_found`)', OpenAIErrorBody],
      413: ['The audio is over 25 MB', OpenAIErrorBody],
      502: ['The transcription provider failed or could not be reached', OpenAIErrorBody],
    },
  },
});

/** ext `GET|PUT /api/settings/voice`. */
export const voiceOperations = operations({
  getVoiceSettings: { method: 'get', path: '/settings/voice', tags: ['Settings'], summary: 'Which provider transcribes dictation, and voice preferences (ext)', response: VoiceSettings },
  updateVoiceSettings: {
    method: 'put',
    path: '/settings/voice',
    tags: ['Settings'],
    summary: 'Set the transcription provider and model, and voice preferences (ext)',
    body: VoiceSettingsUpdate,
    response: VoiceSettings,
    errors: { 422: ['Unknown or unsuitable provider', ErrorBody] },
  },
});
