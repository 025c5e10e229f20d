import type { AudioService } from './service.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { receiveFilePart, uploadRequest } from '../../transports/http/multipart.js';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { audioOperations, MAX_AUDIO_BYTES, voiceOperations } from '../../contract/audio.js';
import { ValidationError } from '../../kernel/errors.js';

/** One `file` part of at most 25 MB, streamed to a private temp file (the service removes it). */
const audioUpload = {
  fieldNames: ['file'],
  maxBytes: MAX_AUDIO_BYTES,
  tmpPath: () => path.join(os.tmpdir(), `agent-desk-audio-${crypto.randomUUID()}`),
  label: 'file',
  missing: () => ValidationError.field('file', 'No audio was sent: attach it as the multipart field `file`.'),
  maxFields: 10,
  maxFieldBytes: 16 * 1024,
};

/** `POST /v1/audio/transcriptions`: a router the app mounts at `/v1`, before OpenAI's door. */
export function transcriptionRoutes({ audio }: { audio: AudioService }) {
  const r = createRouter();
  serveOperations(r, audioOperations, {
    createTranscription: async (_parsed, c) => {
      const part = await receiveFilePart(uploadRequest(c), audioUpload);
      const { format, body } = await audio.transcribe(part, c.req.raw.signal);
      return format === 'text' ? c.text(body.text) : body;
    },
  });
  return r;
}

/** ext `GET|PUT /api/settings/voice`. */
export function voiceRoutes({ audio }: { audio: AudioService }) {
  const r = createRouter();
  serveOperations(r, voiceOperations, {
    getVoiceSettings: () => audio.voice(),
    updateVoiceSettings: ({ body }) => audio.updateVoice(body),
  });
  return r;
}
