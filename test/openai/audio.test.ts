/**
 * `POST /v1/audio/transcriptions` through the `openai` SDK over real HTTP on loopback, forwarded to
 * a fake OpenAI-compatible transcription server chosen in the voice settings: json, text and
 * verbose_json answers; no file, an empty or unreadable file, a file over 25 MB and a wrong key
 * refused in OpenAI's error shape before anything reaches the provider; no temp file left behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI, { toFile } from 'openai';
import { KEY, http, startServer, type TestServer } from './server.js';
import { startFakeTranscriber, type FakeTranscriber } from '../fixtures/fake-transcriber.js';
import { limit } from '../fixtures/until.js';

/** A short valid WAV (16 kHz mono, 0.1 s of a tone): what a recorder sends. */
function wav(): Buffer {
  const samples = 1600;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(16000, 24);
  h.writeUInt32LE(32000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

const leftovers = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('agent-desk-audio-'));

describe('/v1/audio/transcriptions', () => {
  let s: TestServer;
  let fake: FakeTranscriber;
  let client: OpenAI;
  const audio = wav();

  beforeAll(async () => {
    fake = await startFakeTranscriber({ text: 'Olá, quero marcar a revisão do carro.', apiKey: 'sk-upstream' });
    s = await startServer({ env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-upstream', AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0 });
  }, limit(60_000));
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  it('answers 404 in OpenAI shape, naming Settings → Voice, until transcription is set up', async () => {
    const voice = await http(s, 'GET', '/api/settings/voice');
    expect(voice.status).toBe(200);
    expect(voice.json.transcription).toEqual({ provider: null, model: null, ready: false });
    expect(voice.json.providers.map((p: any) => p.id)).toContain('openai');
    const err = await client.audio.transcriptions.create({ file: await toFile(audio, 'q.wav'), model: 'whisper-1' }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.error).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found' });
    expect(err.error.message).toContain('Settings → Voice');
    expect(fake.received).toHaveLength(0);
  });

  it('refuses a provider that cannot transcribe with a 422', async () => {
    const r = await http(s, 'PUT', '/api/settings/voice', { transcription: { provider: 'nope', model: 'whisper-1' } });
    expect(r.status).toBe(422);
    expect(r.json.errors['transcription.provider']).toBeTruthy();
  });

  it('forwards the audio, model, language and prompt and answers {text}', async () => {
    const set = await http(s, 'PUT', '/api/settings/voice', { transcription: { provider: 'openai', model: 'whisper-1' }, auto_read: true });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({ transcription: { provider: 'openai', model: 'whisper-1', ready: true }, auto_read: true });
    const r = await client.audio.transcriptions.create({ file: await toFile(audio, 'pergunta.wav'), model: 'whisper-1', language: 'pt', prompt: 'revisão' });
    expect(r.text).toBe('Olá, quero marcar a revisão do carro.');
    const got = fake.received.at(-1)!;
    expect(got.fields).toMatchObject({ model: 'whisper-1', language: 'pt', prompt: 'revisão', response_format: 'json' });
    expect(got.sha256).toBe(crypto.createHash('sha256').update(audio).digest('hex'));
    expect(got.filename).toBe('pergunta.wav');
    expect(got.authorization).toBe('Bearer sk-upstream');
  });

  it('takes "default" as the configured model, and answers text and verbose_json', async () => {
    const text = await client.audio.transcriptions.create({ file: await toFile(audio, 'q.wav'), model: 'default', response_format: 'text' });
    expect(text).toBe('Olá, quero marcar a revisão do carro.');
    expect(fake.received.at(-1)!.fields.model).toBe('whisper-1');
    const verbose = await client.audio.transcriptions.create({ file: await toFile(audio, 'q.wav'), model: 'whisper-1', response_format: 'verbose_json', language: 'pt' });
    expect(verbose).toMatchObject({ text: 'Olá, quero marcar a revisão do carro.', language: 'pt' });
  });

  it('refuses no file, a text field named file, an empty file and unreadable bytes with 400 on file', async () => {
    const before = fake.received.length;
    const post = (form: FormData, key = KEY) => fetch(`${s.url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    const noFile = new FormData();
    noFile.append('model', 'whisper-1');
    const r1 = await post(noFile);
    expect(r1.status).toBe(400);
    expect((await r1.json()).error).toMatchObject({ type: 'invalid_request_error', param: 'file' });
    const textField = new FormData();
    textField.append('model', 'whisper-1');
    textField.append('file', 'not a file');
    expect((await post(textField)).status).toBe(400);
    const empty = await client.audio.transcriptions.create({ file: await toFile(Buffer.alloc(0), 'e.wav'), model: 'whisper-1' }).catch((e) => e);
    expect(empty).toBeInstanceOf(OpenAI.BadRequestError);
    expect(empty.error).toMatchObject({ param: 'file' });
    expect(fake.received.length).toBe(before);
    // Bytes that are no audio reach the provider, which refuses them: the client's file, a 400.
    const bad = await client.audio.transcriptions.create({ file: await toFile(Buffer.from('this is not audio at all'), 'x.wav'), model: 'whisper-1' }).catch((e) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect(bad.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_value', param: 'file' });
    // No model: a 400 on model.
    const noModel = new FormData();
    noModel.append('file', new Blob([new Uint8Array(audio)]), 'q.wav');
    const r3 = await post(noModel);
    expect(r3.status).toBe(400);
    expect((await r3.json()).error.param).toBe('model');
  });

  it('refuses a file over 25 MB with 413 in OpenAI shape, exactly at the limit it goes through', async () => {
    const before = fake.received.length;
    const over = Buffer.alloc(25 * 1024 * 1024 + 1);
    audio.copy(over);
    const err = await client.audio.transcriptions.create({ file: await toFile(over, 'big.wav'), model: 'whisper-1' }).catch((e) => e);
    expect(err.status).toBe(413);
    expect(err.error).toMatchObject({ type: 'invalid_request_error' });
    expect(err.error.message).toContain('25 MB');
    expect(fake.received.length).toBe(before);
    const atLimit = over.subarray(0, 25 * 1024 * 1024);
    const ok = await client.audio.transcriptions.create({ file: await toFile(atLimit, 'limit.wav'), model: 'whisper-1' });
    expect(ok.text).toBeTruthy();
    expect(fake.received.at(-1)!.bytes).toBe(25 * 1024 * 1024);
  }, limit(60_000));

  it('refuses a wrong or missing key with 401 in OpenAI shape, before reading the audio', async () => {
    const before = fake.received.length;
    const wrong = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: 'sk-wrong', maxRetries: 0 });
    const err = await wrong.audio.transcriptions.create({ file: await toFile(audio, 'q.wav'), model: 'whisper-1' }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.error).toMatchObject({ type: 'invalid_request_error' });
    expect(fake.received.length).toBe(before);
  });

  it('answers 502 in OpenAI shape when the provider fails, and leaves no temp file', async () => {
    fake.set({ failStatus: 500 });
    const err = await client.audio.transcriptions.create({ file: await toFile(audio, 'q.wav'), model: 'whisper-1' }).catch((e) => e);
    fake.set({ failStatus: null });
    expect(err.status).toBe(502);
    expect(err.error).toMatchObject({ type: 'server_error', code: 'transcription_failed' });
    expect(leftovers()).toEqual([]);
  });
});
