/**
 * The README's API examples, run as written: the `sh` blocks of "The API" section (its Files and
 * Executions parts included) go to bash line by line against `npm run serve` on a new data dir,
 * with the fake provider serving the model the examples name. Every request must succeed (2xx, or
 * a status its comment names), so an id, a field or a path that a new data dir does not have fails here, not for a reader.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../fixtures/documents.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { limit } from '../fixtures/until.js';
import { fakeProviderEnv, startServe, type ServeProcess } from '../e2e/support/server.js';
import { ROOT } from './server-process.js';

/** The `sh` code blocks between two headings of the README. */
function shBlocks(readme: string, from: string, to: string): string[] {
  const start = readme.indexOf(`\n${from}\n`);
  const end = readme.indexOf(`\n${to}\n`, start);
  expect(start, `README has a "${from}" heading`).toBeGreaterThan(-1);
  expect(end, `README has a "${to}" heading after "${from}"`).toBeGreaterThan(start);
  return [...readme.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Each command of a block: continuation lines joined, comments and blank lines left out. */
function commands(block: string): string[] {
  const joined = block.replace(/\\\n\s*/g, ' ');
  const out: string[] = [];
  let pending = '';
  for (const line of joined.split('\n')) {
    if (!pending && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    pending = pending ? `${pending}\n${line}` : line;
    // A quoted body may span lines (the streamed execute): the command ends when its quotes close.
    if ((pending.match(/'/g) ?? []).length % 2 === 0) {
      out.push(pending);
      pending = '';
    }
  }
  expect(pending, 'every quote in the block closes').toBe('');
  return out;
}

let fake: FakeServer;
let serve: ServeProcess;
let work: string;

beforeAll(async () => {
  // The examples name two models (the compare example asks both).
  fake = await startFakeOpenAI({ models: ['gpt-4o-mini', 'gpt-4o'], reply: 'A short answer.' });
  serve = await startServe(fakeProviderEnv(fake));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-readme-'));
  // The Files examples upload ./notes.pdf.
  fs.writeFileSync(path.join(work, 'notes.pdf'), await makePdf(2, (page) => [`Release notes, page ${page + 1}.`, 'The release is on Friday.']));
});

afterAll(async () => {
  await serve?.close();
  await fake?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("the README's API examples on a new data dir", () => {
  it('every request in "The API" answers 2xx, in the order written', async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const blocks = shBlocks(readme, '## The API', '## Model providers');
    const lines = blocks.flatMap(commands);
    const curls = lines.filter((l) => l.trimStart().startsWith('curl '));
    expect(curls.length).toBeGreaterThan(30);
    // The block's own first line makes the key; AD points at this test's server instead of the default port.
    const setup = lines.filter((l) => !l.trimStart().startsWith('curl ')).map((l) => l.replace('http://127.0.0.1:8787', serve.url));
    const script = [
      'set -u',
      `export AGENT_DESK_DATA_DIR=${JSON.stringify(serve.dataDir)}`,
      // Each request prints its status after its body, on a line of its own.
      `curl() { command curl --max-time ${Math.ceil(limit(120_000) / 1000)} -w '\\n@@status %{http_code}\\n' "$@"; }`,
      `cd ${JSON.stringify(ROOT)}`,
      ...setup,
      `cd ${JSON.stringify(work)}`,
      ...curls.map((c) => `echo "@@run ${Buffer.from(c).toString('base64')}"\n${c}`),
    ].join('\n');
    // Not spawnSync: the fake provider answers from this process, so its event loop must stay free.
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b) => (stdout += b));
      child.stderr.on('data', (b) => (stderr += b));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(r.status, r.stderr).toBe(0);
    const failures: string[] = [];
    let current = '';
    let seen = 0;
    for (const line of r.stdout.split('\n')) {
      if (line.startsWith('@@run ')) current = Buffer.from(line.slice(6), 'base64').toString();
      const status = /^@@status (\d+)$/.exec(line);
      if (status) {
        seen += 1;
        // A line may say in its comment which other status it can answer (a cancel once the run ended: 409).
        const comment = current.includes('#') ? current.slice(current.lastIndexOf('#')) : '';
        if (!status[1].startsWith('2') && !comment.includes(status[1])) failures.push(`${status[1]}: ${current}`);
      }
    }
    expect(seen).toBe(curls.length);
    expect(failures).toEqual([]);
  });
});
