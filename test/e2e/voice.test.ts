/**
 * Voice in Chromium against `serve`: an answer read aloud (speechSynthesis observed through a spy
 * installed before the app loads: one sentence-sized utterance at a time, in the answer's
 * language, Stop cancels and nothing more is said; Alt+R), and dictation with Chromium's fake
 * microphone fed a WAV that espeak-ng makes, recorded by the app, sent through the platform's
 * /v1/audio/transcriptions to a fake transcription server, ending as text in the message box; then
 * auto-read of the answer to the dictated question. Screenshots at 1280 and 1024 (voice-*).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai';
import { startFakeTranscriber, type FakeTranscriber } from '../fixtures/fake-transcriber';
import { until, limit } from '../fixtures/until.js';
import { ensureRendererBuilt } from './support/build';
import { fakeProviderEnv, startServe } from './support/server';
import { launchBrowser } from './support/browser';
import { e2eSetup } from './support/suite';
import { pageFetch } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { chooseGptModel, lastTurnDone, sendMessage } from './support/chat-env';

const ANSWER = 'A revisão do carro é feita a cada dez mil quilômetros. Você pode marcar pelo aplicativo ou por telefone. Não esqueça de levar o manual, que tem o histórico das revisões. Também é bom verificar os pneus antes de sair.';
const SAID = 'Quero marcar a revisão do carro na segunda-feira.';

let fake: FakeServer;
let transcriber: FakeTranscriber;
let page: Page;

/** What the spy saw: utterances handed to speak() (text, lang) and how many times cancel() was called. */
const spoken = () => page.evaluate(() => (window as any).__voice.spoken as { text: string; lang: string }[]);
const cancels = () => page.evaluate(() => (window as any).__voice.cancels() as number);
/** The system voice finishing the utterance it is saying. */
const endUtterance = () => page.evaluate(() => (window as any).__voice.end());

describe('voice: read aloud and dictation', () => {
  const it = e2eSetup(async (own) => {
    ensureRendererBuilt();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-voice-'));
    own({ close: async () => fs.rmSync(dir, { recursive: true, force: true }) });
    const wav = path.join(dir, 'question.wav');
    execFileSync('espeak-ng', ['-v', 'pt-br', '-w', wav, SAID], { timeout: limit(30_000) });
    fake = own(await startFakeOpenAI({ reply: ANSWER, models: ['gpt-4o-mini'] }));
    // Answers what it heard only for a real recording in a container a browser records (WebM or Ogg).
    transcriber = own(await startFakeTranscriber({ text: (a) => (a.bytes > 1000 ? SAID : '') }));
    const serve = own(await startServe(fakeProviderEnv(fake)));
    const browser = own(
      await launchBrowser({ args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`, '--autoplay-policy=no-user-gesture-required'] }),
    );
    page = await browser.context.newPage();
    await page.addInitScript(() => {
      const spokenList: { text: string; lang: string }[] = [];
      let current: SpeechSynthesisUtterance | null = null;
      let cancelCount = 0;
      const synth = window.speechSynthesis;
      synth.speak = (u: SpeechSynthesisUtterance) => {
        spokenList.push({ text: u.text, lang: u.lang });
        current = u;
      };
      synth.cancel = () => {
        cancelCount++;
        const c = current;
        current = null;
        c?.onerror?.(new Event('error') as SpeechSynthesisErrorEvent);
      };
      (window as any).__voice = {
        spoken: spokenList,
        cancels: () => cancelCount,
        end: () => {
          const c = current;
          current = null;
          c?.onend?.(new Event('end') as SpeechSynthesisEvent);
        },
      };
    });
    await page.goto(serve.loginUrl);
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
    // The person's transcription server, added among the providers.
    const added = await pageFetch(page, 'PUT', '/api/settings/providers', { providers: [{ id: 'whisper', kind: 'openai-compatible', label: 'Whisper server', base_url: transcriber.url }] });
    expect(added.status).toBe(200);
  });

  it('reads an answer aloud in sentence chunks in its language, and Stop cancels at once', async () => {
    await chooseGptModel(page);
    await sendMessage(page, 'Como marco a revisão?');
    await lastTurnDone(page);
    const answer = page.locator('[data-testid="turn"]').last();
    await answer.getByTestId('read-aloud').click();
    await until('the first utterance', async () => (await spoken()).length === 1);
    const [first] = await spoken();
    // The app is in English; the answer is Portuguese: read as Portuguese, and only its first chunk so far.
    expect(first.lang).toBe('pt-BR');
    expect(first.text).toBe('A revisão do carro é feita a cada dez mil quilômetros.');
    await expect.poll(() => answer.getByTestId('read-aloud').textContent()).toBe('Stop reading');
    await endUtterance();
    await until('the second utterance', async () => (await spoken()).length === 2);
    const second = (await spoken())[1];
    expect(second).toEqual({ text: 'Você pode marcar pelo aplicativo ou por telefone.', lang: 'pt-BR' });
    const before = await cancels();
    await answer.getByTestId('read-aloud').click();
    expect(await cancels()).toBeGreaterThan(before);
    await endUtterance();
    expect(await spoken()).toHaveLength(2);
    await expect.poll(() => answer.getByTestId('read-aloud').textContent()).toBe('Read aloud');
    // Alt+R reads the latest answer, and stops it.
    await page.locator('main h1').focus();
    await page.keyboard.press('Alt+KeyR');
    await until('the shortcut reading', async () => (await spoken()).length === 3);
    await page.keyboard.press('Alt+KeyR');
    await expect.poll(() => answer.getByTestId('read-aloud').textContent()).toBe('Read aloud');
    await shotSizesAndThemes(page, 'voice-read-aloud');
  }, limit(120_000));

  it('explains what to set up when no transcription is chosen, and links to Settings → Voice', async () => {
    await page.getByTestId('dictate').click();
    const problem = page.getByTestId('dictation-problem');
    await expect.poll(() => problem.textContent()).toContain('To dictate, choose a transcription service first.');
    await shotSizesAndThemes(page, 'voice-setup-needed');
    await problem.getByRole('button', { name: 'Set up dictation in Settings' }).click();
    await page.getByTestId('voice-panel').waitFor({ timeout: limit(10_000) });
    await page.getByTestId('voice-provider').selectOption('whisper');
    await page.getByTestId('voice-model').fill('whisper-1');
    await page.getByTestId('voice-auto-read').check();
    await page.getByTestId('voice-save').click();
    await expect.poll(() => page.getByTestId('voice-state').textContent()).toBe('Dictation uses whisper-1 on Whisper server.');
    await shotSizesAndThemes(page, 'voice-settings');
  }, limit(60_000));

  it('dictates through the platform into the message box, then reads the answer to it by itself', async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: /^Chat/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(10_000) });
    const received = transcriber.received.length;
    await page.getByTestId('dictate').click();
    const status = page.getByTestId('dictation-status');
    // The fake microphone plays the spoken WAV: the level moves and the time runs.
    await until('a sound level', async () => Number(await status.getByRole('meter').getAttribute('aria-valuenow')) > 0);
    await until('a second of recording', async () => /Recording, 0:0[1-9]/.test((await status.textContent()) ?? ''));
    await shotSizesAndThemes(page, 'voice-recording');
    await page.getByTestId('dictate').click();
    await expect.poll(() => page.locator('#chat-input').inputValue(), { timeout: limit(30_000) }).toBe(SAID);
    expect(transcriber.received.length).toBe(received + 1);
    const got = transcriber.received.at(-1)!;
    expect(got.fields).toMatchObject({ model: 'whisper-1', language: 'en', response_format: 'json' });
    // What Chromium recorded (WebM or Ogg), forwarded as it came.
    expect([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from('OggS')].some((m) => got.head.subarray(0, m.length).equals(m))).toBe(true);
    await shotSizesAndThemes(page, 'voice-transcribed');
    // Sent as dictated: the answer is read aloud without a click (auto-read is on).
    const heard = (await spoken()).length;
    await page.locator('#chat-input').press('Enter');
    await lastTurnDone(page);
    await until('the answer read by itself', async () => (await spoken()).length > heard);
    expect((await spoken())[heard].lang).toBe('pt-BR');
    await expect.poll(() => page.locator('[data-testid="turn"]').last().getByTestId('read-aloud').textContent()).toBe('Stop reading');
    await page.locator('[data-testid="turn"]').last().getByTestId('read-aloud').click();
  }, limit(120_000));

  it('speaks Brazilian Portuguese when the app does: the Voice settings, the read-aloud and dictate buttons', async () => {
    expect((await pageFetch(page, 'PUT', '/api/settings/app', { locale: 'pt-BR' })).status).toBe(200);
    // The saved language is read as the app starts.
    await page.goto(`${new URL(page.url()).origin}/#/settings/voice`);
    await page.reload();
    await page.getByTestId('voice-panel').waitFor({ timeout: limit(20_000) });
    await expect.poll(() => page.getByTestId('voice-state').textContent()).toBe('O ditado usa whisper-1 em Whisper server.');
    expect(await page.getByRole('tab', { name: 'Voz' }).count()).toBe(1);
    await shotSizesAndThemes(page, 'voice-settings-pt-BR');
    await page.evaluate(() => (location.hash = '#/chat'));
    await page.getByTestId('dictate').waitFor({ timeout: limit(20_000) });
    expect(await page.getByTestId('dictate').textContent()).toBe('Ditar');
    await shotSizesAndThemes(page, 'voice-chat-pt-BR');
    expect((await pageFetch(page, 'PUT', '/api/settings/app', { locale: null })).status).toBe(200);
  }, limit(60_000));
});
