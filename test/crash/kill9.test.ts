/**
 * Crash recovery: the real server (`cli.ts serve`) is `kill -9`ed at random points during mixed
 * work (memory writes, uploads and processing, streaming executions against the fake provider,
 * webhook deliveries and retries), then restarted on the same data dir, CRASH_CYCLES times
 * (5 in `npm test`). After every crash: the database passes integrity_check; every
 * acknowledged write is there (and nothing never sent); no half-written file is visible;
 * interrupted executions end `failed` with a reason. At the end, pending jobs resume.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { prng, startServer, type ServerProcess } from './server-process.js';
import { readSSE } from '../fixtures/sse-reader.js';
import { limit, until } from '../fixtures/until.js';

const KEY = 'crash-key-0123456789abcdef';
const CYCLES = Number(process.env.CRASH_CYCLES ?? 5);
const SEED = Number(process.env.CRASH_SEED ?? 8);
const REPLY = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
const rand = prng(SEED);

interface Mem {
  content: string;
  deleted: boolean;
  /** An operation sent but not answered when the server died: either outcome is fine. */
  pending?: { content?: string; deleted?: boolean };
}
interface FileAck {
  sha256: string;
  bytes: number;
}
interface Exec {
  completed: boolean;
  output: string;
}

const dataDir = tempDir('agent-desk-crash-');
const mems = new Map<number, Mem>();
const unackedCreates = new Set<string>();
const files = new Map<number, FileAck>();
const execs = new Map<number, Exec>();
const stats = { crashes: 0, acknowledged: 0, lost: 0, interruptedExecutions: 0, resumedDeliveries: 0 };
let fake: FakeServer;
let receiver: http.Server;
let receiverOk = false;
let receiverUrl = '';
let server: ServerProcess | null = null;

const env = () => ({
  AGENT_DESK_API_KEY: KEY,
  AGENT_DESK_OPENAI_BASE_URL: fake.url,
  AGENT_DESK_OPENAI_API_KEY: 'sk-fake',
  // Short retries so that deliveries retry within the test; a restart must not lose them.
  AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '300,600,900',
  AGENT_DESK_WEBHOOK_TIMEOUT_MS: '2000',
});

beforeAll(async () => {
  fake = await startFakeOpenAI({ reply: REPLY, delayMs: 15 });
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(receiverOk ? 200 : 500).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await server?.kill9();
  await fake?.close();
  await new Promise((r) => receiver?.close(r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.info(`[crash] seed ${SEED}: ${stats.crashes} kill -9 survived; ${stats.acknowledged} acknowledged writes, ${stats.lost} lost; ${stats.interruptedExecutions} interrupted executions marked failed; ${stats.resumedDeliveries} webhook deliveries resumed after restart`);
});

async function api(method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server!.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const randomText = () => `${crypto.randomBytes(6).toString('hex')} ${['é', '漢字', '🧪', '"quoted"', "o'clock", '\\'][Math.floor(rand() * 6)]} ${'x'.repeat(Math.floor(rand() * 2000))}`;

/** One worker's loop of memory writes; stops at the first network error (the server died). */
async function memoryWorker(alive: () => boolean): Promise<void> {
  while (alive()) {
    const acked = [...mems.entries()].filter(([, m]) => !m.deleted && !m.pending);
    const roll = rand();
    if (roll < 0.6 || acked.length < 3) {
      const content = randomText();
      unackedCreates.add(content);
      const r = await api('POST', '/api/memories', { memory: content });
      expect(r.status).toBe(200);
      unackedCreates.delete(content);
      mems.set(r.json.memory.id, { content, deleted: false });
      stats.acknowledged++;
    } else {
      const [id, m] = acked[Math.floor(rand() * acked.length)];
      if (roll < 0.85) {
        const content = randomText();
        m.pending = { content };
        const r = await api('PATCH', `/api/memories/${id}`, { memory: content });
        expect(r.status).toBe(200);
        mems.set(id, { content, deleted: false });
      } else {
        m.pending = { deleted: true };
        const r = await api('DELETE', `/api/memories/${id}`);
        expect(r.status).toBe(200);
        mems.set(id, { content: m.content, deleted: true });
      }
      stats.acknowledged++;
    }
  }
}

async function fileWorker(alive: () => boolean): Promise<void> {
  while (alive()) {
    const bytes = Buffer.from(`${randomText()}\n`.repeat(1 + Math.floor(rand() * 200)));
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), `crash-${files.size}.txt`);
    const r = await api('POST', '/api/files', form);
    expect(r.status).toBe(200);
    files.set(r.json.id, { sha256: crypto.createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
    stats.acknowledged++;
    // Linking a waiting file starts its processing (a durable job).
    if (rand() < 0.7) expect((await api('POST', '/api/agents/1/files', { file_ids: [r.json.id] })).status).toBe(200);
  }
}

async function executionWorker(alive: () => boolean): Promise<void> {
  while (alive()) {
    const res = await fetch(`${server!.url}/api/agents/1/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, temperature: '0.5', model: 'gpt-4o-mini', tools: 'no-tools', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(res.status).toBe(200);
    let exec: Exec | undefined;
    await readSSE(res, (data) => {
      const ev = JSON.parse(data);
      if (!exec) execs.set(ev.id, (exec = { completed: false, output: '' }));
      if (ev.status === 'running') exec.output += ev.output;
      if (ev.status === 'completed') {
        exec.completed = true;
        stats.acknowledged++;
      }
    });
  }
}

/** Runs the mixed workload until the kill; returns when every worker has stopped. */
async function workUntilKilled(killAfterMs: number): Promise<void> {
  let alive = true;
  const isAlive = () => alive;
  const guard = (p: Promise<void>) =>
    p.catch((err) => {
      // A network error is the kill; anything else is a real failure.
      if (alive || !/fetch failed|terminated|ECONNRESET|ECONNREFUSED|socket|other side closed/i.test(`${err?.message} ${err?.cause?.message ?? ''}`)) throw err;
    });
  const workers = [
    ...Array.from({ length: 3 }, () => guard(memoryWorker(isAlive))),
    guard(fileWorker(isAlive)),
    ...Array.from({ length: 3 }, () => guard(executionWorker(isAlive))),
  ];
  const before = stats.acknowledged;
  await new Promise((r) => setTimeout(r, killAfterMs));
  // On loaded cores that moment can come before any work was done: also wait for a few acknowledged
  // writes, so that every kill lands in the middle of work. A worker's real failure ends the wait.
  await Promise.race([
    until('acknowledged writes before the kill', () => stats.acknowledged - before >= 6),
    Promise.all(workers).then(() => {
      if (alive) throw new Error('every worker stopped before the kill');
    }),
  ]);
  alive = false;
  await server!.kill9();
  stats.crashes++;
  await Promise.all(workers);
}

function checkDatabaseOffline(): void {
  // Opened as the next start would open it, while no server runs: WAL recovery, then checks.
  const db = new Database(path.join(dataDir, 'agent-desk.sqlite'));
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
  } finally {
    db.close();
  }
}

function checkAfterRestart(): void {
  const db = new Database(path.join(dataDir, 'agent-desk.sqlite'), { readonly: true });
  try {
    // Memories: every acknowledged state is there; in-flight ones are the old or the new state.
    const rows = new Map((db.prepare('SELECT id, memory FROM memories').all() as { id: number; memory: string }[]).map((r) => [r.id, r.memory]));
    for (const [id, m] of mems) {
      const actual = rows.get(id);
      const expected = m.deleted ? undefined : m.content;
      const ok = actual === expected || (m.pending && (m.pending.deleted ? actual === undefined : actual === m.pending.content));
      if (!ok) stats.lost++;
      expect(ok, `memory ${id}: expected ${JSON.stringify(expected?.slice(0, 40))}, found ${JSON.stringify(actual?.slice(0, 40))}`).toBe(true);
      // From now on the stored state is the truth for this memory.
      mems.set(id, actual === undefined ? { content: m.content, deleted: true } : { content: actual, deleted: false });
    }
    for (const [id, memory] of rows) {
      if (mems.has(id)) continue;
      // Only a create that was in flight at the kill may appear unannounced.
      expect(unackedCreates.has(memory), `memory ${id} was never sent`).toBe(true);
      mems.set(id, { content: memory, deleted: false });
    }
    unackedCreates.clear();

    // Files: every acknowledged upload has its row and its whole bytes; no row names partial bytes.
    const fileRows = db.prepare('SELECT id, bytes, sha256, status FROM files').all() as { id: number; bytes: number; sha256: string; status: string }[];
    const byId = new Map(fileRows.map((f) => [f.id, f]));
    for (const [id, ack] of files) {
      const row = byId.get(id);
      if (!row) stats.lost++;
      expect(row, `file ${id} acknowledged but gone`).toBeDefined();
      expect(row!.sha256).toBe(ack.sha256);
    }
    for (const f of fileRows) {
      const onDisk = fs.readFileSync(path.join(dataDir, 'files', String(f.id)));
      expect(onDisk.length, `file ${f.id} size`).toBe(f.bytes);
      expect(crypto.createHash('sha256').update(onDisk).digest('hex'), `file ${f.id} bytes`).toBe(f.sha256);
    }
    expect(fs.readdirSync(path.join(dataDir, 'files', 'tmp')), 'unfinished uploads left visible').toEqual([]);

    // Executions: none left running; those the client saw complete are stored whole.
    const live = db.prepare("SELECT id FROM executions WHERE status IN ('starting','running')").all();
    expect(live, 'executions still running after a restart').toEqual([]);
    for (const [id, e] of execs) {
      const row = db.prepare('SELECT status, output, error_message, error_code FROM executions WHERE id = ?').get(id) as any;
      expect(row, `execution ${id}`).toBeDefined();
      if (e.completed) {
        expect(row.status).toBe('succeeded');
        expect(row.output).toBe(REPLY);
        expect(e.output).toBe(REPLY);
      } else {
        expect(['succeeded', 'failed'], `execution ${id}`).toContain(row.status);
        if (row.status === 'failed') {
          expect(row.error_message, `execution ${id} failed without a reason`).toMatch(/\w+ \w+ \w+/);
          stats.interruptedExecutions++;
        }
      }
    }
    execs.clear();

    // Webhook deliveries still due keep their durable job.
    const orphaned = db
      .prepare("SELECT d.id FROM webhook_deliveries d WHERE d.status = 'pending' AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = d.job_id AND j.state IN ('pending','running'))")
      .all();
    expect(orphaned, 'pending deliveries without a job').toEqual([]);
  } finally {
    db.close();
  }
}

describe('kill -9 during mixed work', () => {
  it(
    `survives ${CYCLES} crashes with no acknowledged write lost`,
    async () => {
      server = await startServer(dataDir, env());
      const hook = await api('POST', '/api/agents/1/webhooks', { url: receiverUrl, method: 'POST' });
      expect(hook.status).toBe(201);
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        await workUntilKilled(500 + Math.floor(rand() * 1500));
        checkDatabaseOffline();
        server = await startServer(dataDir, env());
        checkAfterRestart();
      }
      expect(stats.acknowledged).toBeGreaterThan(CYCLES * 5);
      expect(stats.lost).toBe(0);
    },
    limit(60_000 + CYCLES * 30_000),
  );

  it('pending jobs resume after the last restart: deliveries go out, files finish processing', async () => {
    const pendingAtStart = (() => {
      const db = new Database(path.join(dataDir, 'agent-desk.sqlite'), { readonly: true });
      try {
        return (db.prepare("SELECT id FROM webhook_deliveries WHERE status = 'pending'").all() as { id: number }[]).map((r) => r.id);
      } finally {
        db.close();
      }
    })();
    receiverOk = true;
    // Generous: under CPU contention a file worker (tsx in dev) can take tens of seconds to start.
    const deadline = Date.now() + limit(90_000);
    let state: { pending: number; inProgress: number } = { pending: -1, inProgress: -1 };
    let detail = '';
    while (Date.now() < deadline) {
      const db = new Database(path.join(dataDir, 'agent-desk.sqlite'), { readonly: true });
      try {
        state = {
          pending: (db.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'").get() as any).n,
          inProgress: (db.prepare("SELECT count(*) AS n FROM files WHERE status IN ('waiting','in_progress') AND id IN (SELECT file_id FROM agent_files)").get() as any).n,
        };
        detail = JSON.stringify({
          deliveries: db.prepare("SELECT d.id, d.attempts, d.next_attempt_at, j.state, j.run_at, j.attempts AS job_attempts FROM webhook_deliveries d LEFT JOIN jobs j ON j.id = d.job_id WHERE d.status = 'pending'").all(),
          files: db.prepare("SELECT id, status FROM files WHERE status IN ('waiting','in_progress') AND id IN (SELECT file_id FROM agent_files)").all(),
          jobs: db.prepare("SELECT kind, state, count(*) AS n FROM jobs GROUP BY kind, state").all(),
          now: Date.now(),
        });
      } finally {
        db.close();
      }
      if (state.pending === 0 && state.inProgress === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(state, `background work did not resume: ${detail}; server stderr: ${server!.stderr().slice(-1500)}`).toEqual({ pending: 0, inProgress: 0 });
    const db = new Database(path.join(dataDir, 'agent-desk.sqlite'), { readonly: true });
    try {
      for (const id of pendingAtStart) {
        const d = db.prepare('SELECT status FROM webhook_deliveries WHERE id = ?').get(id) as { status: string };
        expect(d.status, `delivery ${id}`).toBe('succeeded');
        stats.resumedDeliveries++;
      }
    } finally {
      db.close();
    }
    expect(pendingAtStart.length + stats.interruptedExecutions).toBeGreaterThan(0);
    expect(await server!.stop()).toBe(0);
  }, limit(120_000));
});
