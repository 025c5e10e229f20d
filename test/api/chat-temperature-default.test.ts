/**
 * The Chat agent starts near 0.7 (the spec's option 0.75), not on its first option, 0: a new data
 * dir seeds it so, and a data dir seeded before gets it on its next start unless a person chose a
 * temperature for it (the agent editor writes a default whenever one is picked). Once only.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatform, type Platform } from '../../src-main/platform/platform.js';
import { DEFAULT_USER_ID } from '../../src-main/platform/kernel/context.js';
import type { Question } from '../../src-main/platform/contract/agents.js';
import { KEY, call, tempDir } from './helpers.js';

const open: Platform[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const p of open.splice(0)) await p.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function start(dir: string): Platform {
  const p = createPlatform({ dataDir: dir, envApiKey: KEY });
  open.push(p);
  return p;
}

async function stop(p: Platform): Promise<void> {
  open.splice(open.indexOf(p), 1);
  await p.close();
}

async function chatTemperature(p: Platform): Promise<Question> {
  const chat = p.services.agents.findBySlug(DEFAULT_USER_ID, 'chat')!;
  const a = (await call(p, 'GET', `/api/agents/${chat.id}`)).json;
  return a.questions.find((q: Question) => q.name === 'temperature');
}

/** The Chat agent as a data dir seeded before the default stored it: its temperature as `question`, and the upgrade not yet run. */
async function asSeededBefore(p: Platform, question: Question): Promise<void> {
  const chat = p.services.agents.findBySlug(DEFAULT_USER_ID, 'chat')!;
  const questions = chat.questions.map((q) => (q.name === 'temperature' ? question : q));
  expect((await call(p, 'PATCH', `/api/agents/${chat.id}`, { body: { questions } })).status).toBe(200);
  p.services.settings.set('seed.defaults', false);
}

const SPEC_OPTIONS = ['0', '0.25', '0.5', '0.75', '1'];
const plain: Question = { type: 'select', name: 'temperature', description: 'Sampling temperature: 0 is focused, 1 is creative.', required: true, options: SPEC_OPTIONS };

describe('the Chat agent\'s starting temperature', () => {
  it('a new data dir seeds it near 0.7, among the spec\'s options (and the chat template too)', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const p = start(dir);
    expect(await chatTemperature(p)).toMatchObject({ options: SPEC_OPTIONS, default: '0.75' });
    const q = p.services.templates.find('chat-assistant')!.questions.find((x) => x.name === 'temperature');
    expect(q).toMatchObject({ options: SPEC_OPTIONS, default: '0.75' });
  });

  it('a data dir seeded before gets it on its next start when nobody chose one; a removed default stays removed after that', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const before = start(dir);
    await asSeededBefore(before, plain);
    expect((await chatTemperature(before)).default).toBeUndefined();
    await stop(before);
    const after = start(dir);
    expect(await chatTemperature(after)).toMatchObject({ options: SPEC_OPTIONS, default: '0.75' });
    // Once only: a person who then takes the default away keeps it that way across starts.
    const chat = after.services.agents.findBySlug(DEFAULT_USER_ID, 'chat')!;
    const questions = chat.questions.map((q) => (q.name === 'temperature' ? plain : q));
    expect((await call(after, 'PATCH', `/api/agents/${chat.id}`, { body: { questions } })).status).toBe(200);
    await stop(after);
    const again = start(dir);
    expect((await chatTemperature(again)).default).toBeUndefined();
  });

  it('a temperature a person chose is kept, 0 included', async () => {
    for (const chosen of ['0', '0.2']) {
      const dir = tempDir();
      dirs.push(dir);
      const before = start(dir);
      const options = SPEC_OPTIONS.includes(chosen) ? SPEC_OPTIONS : [...SPEC_OPTIONS, chosen];
      await asSeededBefore(before, { ...plain, options, default: chosen });
      await stop(before);
      const after = start(dir);
      expect(await chatTemperature(after)).toMatchObject({ options, default: chosen });
    }
  });
});
