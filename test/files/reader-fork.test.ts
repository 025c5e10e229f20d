/**
 * Under Node the app forks its reading processes itself (ingest/spawned.ts, through the one
 * launcher, kernel/reader-launcher.ts): no process or thread stands between the app and its readers.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnReader, type SpawnedChild } from '../../src-main/platform/ingest/spawned.js';
import { limit, until } from '../fixtures/until.js';

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

/** Pids of this process's direct children (Linux /proc). */
const childrenOf = (ppid: number) =>
  fs.readdirSync('/proc').flatMap((n) => {
    if (!/^\d+$/.test(n)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${n}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === ppid ? [Number(n)] : [];
    } catch {
      return [];
    }
  });

function ask(reader: SpawnedChild): Promise<{ pid: number; ppid: number }> {
  return new Promise((resolve) => {
    reader.once('message', resolve);
    reader.send('who');
  });
}

const closed = (reader: SpawnedChild) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) => reader.once('close', (code, signal) => resolve({ code, signal })));

/** A fixture app (tsx) run as its own process; resolves its first stdout line as JSON. */
function runApp(name: string) {
  const app = spawn(process.execPath, ['--import', 'tsx', path.join(here, '../fixtures/readers', name)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  app.stdout!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => app.once('exit', (code) => resolve(code)));
  const first = until('the app to report its reader', () => (out.includes('\n') ? (JSON.parse(out.split('\n')[0]) as { pid: number; ppid: number }) : null), limit(30_000));
  return { app, exited, first };
}

describe('reading processes are forked by the app itself under Node', () => {
  it('a reader’s parent is the app, with no process between them, and messages go both ways', async () => {
    const a = await spawnReader(WHO, []);
    const b = await spawnReader(WHO, []);
    const [wa, wb] = [await ask(a), await ask(b)];
    expect(wa.ppid).toBe(process.pid);
    expect(wb.ppid).toBe(process.pid);
    expect(wa.pid).not.toBe(wb.pid);
    if (process.platform === 'linux') expect(childrenOf(process.pid)).toEqual(expect.arrayContaining([wa.pid, wb.pid]));
    // Background priority, for the reader and every thread it started, while the app keeps its own.
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

  it('a reader killed from outside closes as killed, and the next reader starts', async () => {
    const r = await spawnReader(WHO, []);
    const { pid } = await ask(r);
    const end = closed(r);
    process.kill(pid, 'SIGKILL');
    expect(await end).toEqual({ code: null, signal: 'SIGKILL' });
    const next = await spawnReader(WHO, []);
    const who = await ask(next);
    expect(who.ppid).toBe(process.pid);
    expect(who.pid).not.toBe(pid);
    next.kill();
  });

  it('when the app is killed, its readers end too', async () => {
    const { app, first } = runApp('app-that-dies.ts');
    const { pid, ppid } = await first;
    expect(ppid).toBe(app.pid);
    app.kill('SIGKILL');
    await until('the reader to end', () => !alive(pid), limit(30_000));
  });

  it('an idle reader does not keep the app running: the app ends by itself, and the reader with it', async () => {
    const { app, exited, first } = runApp('app-with-idle-reader.ts');
    const { pid, ppid } = await first;
    expect(ppid).toBe(app.pid);
    expect(await exited).toBe(0);
    await until('the reader to end', () => !alive(pid), limit(30_000));
  });
});
