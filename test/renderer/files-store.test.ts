// @vitest-environment jsdom
/**
 * The Files screen's store: pages through every file (no cap at 100), sends the filters to the
 * server, and drops an answer to a filter that was changed meanwhile.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

type F = { id: number; object: 'file'; bytes: number; created_at: string; filename: string; credits: number; status: 'completed' | 'failed' };
const all: F[] = Array.from({ length: 130 }, (_, i) => ({ id: 130 - i, object: 'file', bytes: 1, created_at: '2026-11-21T08:52:01+00:00', filename: `f${130 - i}.txt`, credits: 0, status: (130 - i) % 10 === 0 ? 'failed' : 'completed' }));
const asked: Record<string, unknown>[] = [];
let gate: Promise<void> | null = null;

vi.mock('../../src-renderer/api', async () => ({
  ApiError: class extends Error {},
  messageOf: (e: unknown) => String(e),
  ops: (await import('../../src-renderer/api/operations')).ops,
  api: {
    async call(_op: unknown, { query: q }: { query: { page: number; per_page: number; status?: string; q?: string } }) {
      asked.push(q);
      if (gate && q.q === 'slow') await gate;
      const hits = all.filter((f) => (!q.status || f.status === q.status) && (!q.q || f.filename.includes(q.q)));
      return { data: hits.slice((q.page - 1) * q.per_page, q.page * q.per_page) };
    },
  },
}));

const { useFiles, PAGE_SIZE } = await import('../../src-renderer/stores/files');

describe('files store', () => {
  beforeEach(() => {
    asked.length = 0;
    useFiles.setState({ files: [], pages: 1, hasMore: false, filter: { status: '', q: '' }, loaded: false });
  });

  it('loads more until every file is shown, with no cap at 100', async () => {
    const s = useFiles.getState;
    await s().loadFiles();
    expect(s().files).toHaveLength(PAGE_SIZE);
    expect(s().hasMore).toBe(true);
    while (s().hasMore) await s().loadMore();
    expect(s().files.map((f) => f.id)).toEqual(all.map((f) => f.id));
    expect(asked.every((q) => q.per_page === PAGE_SIZE)).toBe(true);
    // A refresh (the poll) keeps every page loaded so far.
    await s().loadFiles();
    expect(s().files).toHaveLength(130);
  });

  it('sends status and q to the server and starts again at page 1', async () => {
    const s = useFiles.getState;
    await s().loadFiles();
    await s().loadMore();
    await s().setFilter({ status: 'failed' });
    expect(asked.at(-1)).toMatchObject({ page: 1, status: 'failed' });
    expect(s().files.map((f) => f.id)).toEqual(all.filter((f) => f.status === 'failed').map((f) => f.id));
    expect(s().hasMore).toBe(false);
    await s().setFilter({ status: '', q: ' f12 ' });
    expect(asked.at(-1)).toMatchObject({ page: 1, status: '', q: 'f12' });
    expect(s().files.map((f) => f.filename)).toEqual(['f129.txt', 'f128.txt', 'f127.txt', 'f126.txt', 'f125.txt', 'f124.txt', 'f123.txt', 'f122.txt', 'f121.txt', 'f120.txt', 'f12.txt']);
  });

  it('an answer to an older filter is dropped', async () => {
    const s = useFiles.getState;
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const slow = s().setFilter({ q: 'slow' });
    await s().setFilter({ q: 'f13' });
    open();
    await slow;
    gate = null;
    expect(s().filter.q).toBe('f13');
    expect(s().files.map((f) => f.filename)).toEqual(['f130.txt', 'f13.txt']);
  });
});
