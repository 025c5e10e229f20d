import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnReader, type SpawnedChild } from '../../src-main/platform/ingest/spawned.js';
import { until } from '../fixtures/until.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const WHO = path.join(here, '../fixtures/readers/who.mjs');

/** Running (a zombie no one has reaped yet counts as ended). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
};

function ask(reader: SpawnedChild): Promise<{ pid: number; ppid: number }> {
  return new Promise((resolve) => {
    reader.once('message', resolve);
    reader.send('who');
  });
}

const closed = (reader: SpawnedChild) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) => reader.once('close', (code, signal) => resolve({ code, signal })));

describe('reading processes are forked by the spawner, not by the app', () => {
  it('a reader’s parent is the spawner, shared by all readers, and messages go both ways', async () => {
    const a = await spawnReader(WHO, []);
    const b = await spawnReader(WHO, []);
    const [wa, wb] = [await ask(a), await ask(b)];
    expect(wa.ppid).not.toBe(process.pid);
    expect(wa.ppid).toBe(wb.ppid);
    expect(wa.pid).not.toBe(wb.pid);
    // Background priority, inherited from the spawner by the reader and every thread it started.
    expect(os.getPriority(wa.pid)).toBe(5);
    if (process.platform === 'linux') {
      const threads = fs.readdirSync(`/proc/${wa.pid}/task`);
      expect(threads.length).toBeGreaterThan(1);
      for (const t of threads) expect(Number(fs.readFileSync(`/proc/${wa.pid}/task/${t}/stat`, 'utf8').split(') ')[1].split(' ')[16])).toBe(5);
    }
    expect(os.getPriority()).toBe(0);
    const ends = [closed(a), closed(b)];
    a.kill();
    b.kill();
    expect(await Promise.all(ends)).toEqual([
      { code: null, signal: 'SIGKILL' },
      { code: null, signal: 'SIGKILL' },
    ]);
    expect(a.connected).toBe(false);
  });

  it('a reader that exits closes with its code and the end of its stderr', async () => {
    const r = await spawnReader(WHO, []);
    const end = closed(r);
    r.send('fail');
    expect(await end).toEqual({ code: 3, signal: null });
    expect(r.stderr).toContain('something went wrong in the reader');
  });

  it('when the spawner dies its readers close as killed, and the next reader starts a new spawner', async () => {
    const r = await spawnReader(WHO, []);
    const { ppid: spawner } = await ask(r);
    const end = closed(r);
    process.kill(spawner, 'SIGKILL');
    expect((await end).signal).toBe('SIGKILL');
    const next = await spawnReader(WHO, []);
    const who = await ask(next);
    expect(who.ppid).not.toBe(spawner);
    expect(who.ppid).not.toBe(process.pid);
    next.kill();
  });

  it('when the app is killed, the spawner and its readers end too', async () => {
    const app = spawn(process.execPath, ['--import', 'tsx', path.join(here, '../fixtures/readers/app-that-dies.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    app.stdout!.on('data', (d) => (out += d));
    const { pid, ppid } = await until('the app to report its reader', () => (out.includes('\n') ? (JSON.parse(out.split('\n')[0]) as { pid: number; ppid: number }) : null), 30_000);
    expect(ppid).not.toBe(app.pid);
    app.kill('SIGKILL');
    await until('the spawner and the reader to end', () => !alive(pid) && !alive(ppid), 30_000);
  });
});
