// @vitest-environment jsdom
/**
 * The one upload concept (stores/uploads.ts) the chat's attachments and the Files screen share:
 * a file over the known limit is refused before a byte goes, with the platform's own status (so
 * no Retry is offered); a refusal is not retriable, a broken connection is; the File is kept for
 * Retry until forgotten.
 */
import { describe, expect, it, vi } from 'vitest';

const asked: unknown[] = [];
const sent: { op: unknown; input: { form: Record<string, unknown> } }[] = [];
vi.mock('../../src-renderer/api', async () => ({
  ...(await import('../../src-renderer/api/errors')),
  ops: (await import('../../src-renderer/api/operations')).ops,
  api: {
    transport: 'bridge',
    async call(op: unknown) {
      asked.push(op);
      return { max_upload_bytes: 10 };
    },
    async upload(op: unknown, input: { form: Record<string, unknown> }) {
      sent.push({ op, input });
      return { id: 9, object: 'file', bytes: 1, created_at: '', filename: 'a.txt', credits: 0, status: 'waiting' };
    },
  },
}));

const { fileOf, forget, isRetriable, newUpload, sendFile, uploadLimit } = await import('../../src-renderer/stores/uploads');
const { ApiError } = await import('../../src-renderer/api/errors');
const { ops } = await import('../../src-renderer/api/operations');

describe('an upload', () => {
  it('asks the platform for its limit once when no screen has loaded it, and is refused over it before a byte goes', async () => {
    const err = await sendFile(new File(['x'.repeat(11)], 'big.txt')).catch((e: unknown) => e);
    expect((err as InstanceType<typeof ApiError>).status).toBe(413);
    expect(asked).toEqual([ops.getApp]);
    expect(sent).toHaveLength(0);
    await sendFile(new File(['x'.repeat(12)], 'bigger.txt')).catch(() => undefined);
    expect(asked).toHaveLength(1);
  });

  it('is refused over the known limit before a byte goes, as the platform would (413, no Retry)', async () => {
    uploadLimit.set(10);
    const err = await sendFile(new File(['x'.repeat(11)], 'big.txt')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as InstanceType<typeof ApiError>).status).toBe(413);
    expect(isRetriable(err)).toBe(false);
    expect(sent).toHaveLength(0);

    const small = new File(['x'], 'a.txt');
    expect((await sendFile(small)).id).toBe(9);
    expect(sent).toEqual([{ op: ops.uploadFile, input: { form: { file: small } } }]);
  });

  it('tells a broken connection (Retry may work) from a refusal', () => {
    expect(isRetriable(new Error('Failed to fetch'))).toBe(true);
    expect(isRetriable(new ApiError(503, 'Busy'))).toBe(true);
    expect(isRetriable(new ApiError(422, 'Not a type it reads'))).toBe(false);
  });

  it('keeps its File for Retry until forgotten, and says when the transport cannot count bytes', () => {
    const f = new File(['hello'], 'notes.txt');
    const u = newUpload('k1', f);
    expect(u).toMatchObject({ key: 'k1', name: 'notes.txt', size: 5, sent: 0, fileId: null, phase: 'uploading', indeterminate: true });
    expect(fileOf('k1')).toBe(f);
    forget('k1');
    expect(fileOf('k1')).toBeUndefined();
  });
});
