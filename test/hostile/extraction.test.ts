import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, makePlatform } from '../api/helpers.js';
import { limit, until } from '../fixtures/until.js';

type FileEnd = { id: number; status: string; error?: string };
import { upload } from '../files/helpers.js';
import { docxZipBomb, longRunDocx, longRunText, pdfPageTreeBomb, pdfRunLengthBomb, pdfStreamBomb, xlsxRangeBomb } from '../fixtures/bombs.js';
import { runExtraction } from '../../src-main/platform/ingest/run.js';
import { chunkText } from '../../src-main/platform/ingest/chunk.js';
import { checkZip } from '../../src-main/platform/ingest/extract/zip-guard.js';
import { checkPdfStreams } from '../../src-main/platform/ingest/extract/pdf-guard.js';
import { limitsFor } from '../../src-main/platform/ingest/limits.js';
import { makeDocx } from '../fixtures/documents.js';
import { lzwBomb, lzwEncode, pdfWithContent } from './support/lzw.js';
import { LzwCounter } from '../../src-main/platform/ingest/extract/pdf-lzw.js';
import zlib from 'node:zlib';
import { HashEmbedder } from '../retrieval/helpers.js';

/**
 * Hostile documents end `failed` with a reason the user understands (or, for the long runs,
 * `completed`), each in its own process with memory and time limits, while a small file
 * uploaded after them completes. No timing assertion: the bombs used to run for minutes or take
 * gigabytes; the bounds here are the tests' own timeouts.
 */
describe('hostile documents', () => {
  const p = makePlatform();
  // What is tested is reading; `completed` also waits for the vectors (CONTRACT.md "Lean start"),
  // so the thousands of passages of a long run get a quick embedder instead of the built-in model.
  p.services.retrieval.useEmbedder(new HashEmbedder());
  afterAll(async () => {
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  const processFile = async (name: string, bytes: Buffer | string) => {
    const up = await upload(p, name, bytes);
    expect(up.status).toBe(200);
    const r = await call(p, 'POST', `/api/files/${up.json.id}/process`);
    expect(r.status).toBe(200);
    // The request waits for the end only so long; on a busy machine the file may still be read after it.
    if (r.json.status === 'completed' || r.json.status === 'failed') return r.json as FileEnd;
    return until(`${name} to end`, async () => {
      const f = (await call(p, 'GET', `/api/files/${up.json.id}`)).json;
      return f.status === 'completed' || f.status === 'failed' ? (f as FileEnd) : null;
    }, 300_000);
  };

  it('a small file uploaded behind three bombs completes, and each bomb fails with its reason', async () => {
    const bombs = [
      processFile('range.xlsx', xlsxRangeBomb('A1:XFD1048576', true)),
      processFile('pages.pdf', pdfPageTreeBomb()),
      processFile('stream.pdf', pdfStreamBomb(1500)),
    ];
    const small = await processFile('note.txt', 'twelve bytes');
    expect(small.status).toBe('completed');
    const [range, pages, stream] = await Promise.all(bombs);
    expect(range).toMatchObject({ status: 'failed' });
    expect(range.error).toMatch(/^The sheet "Sheet1" spans 17,179,869,184 cells \(A1:XFD1048576\); Agent Desk reads sheets of up to 5,000,000 cells\.$/);
    expect(pages).toMatchObject({ status: 'failed' });
    expect(pages.error).toBe('The PDF claims 1,073,741,824 pages; Agent Desk reads PDFs of up to 10,000 pages.');
    expect(stream).toMatchObject({ status: 'failed' });
    expect(stream.error).toMatch(/^The PDF holds compressed data that expands to more than 160 MB \(1 MB on disk\); it looks built to exhaust memory/);
  }, limit(300_000));

  it('an LZW bomb (1 GB from 413 KB) fails with the decoded-size reason, not the memory limit; ordinary LZW text is read', async () => {
    const bomb = await processFile('lzw.pdf', pdfWithContent(lzwBomb(1024).data, '/LZWDecode'));
    expect(bomb.status).toBe('failed');
    expect(bomb.error).toBe('The PDF holds compressed data that expands to more than 160 MB (413 KB on disk); it looks built to exhaust memory and was not read.');
    const lines = Array.from({ length: 40 }, (_, i) => `BT /F1 10 Tf 40 ${760 - i * 18} Td (Line ${i}: ordinary words compressed by LZW, number ${i * 7919}) Tj ET`).join('\n');
    const fine = await processFile('lzw-text.pdf', pdfWithContent(lzwEncode(Buffer.from(lines)), '/LZWDecode'));
    expect(fine.status).toBe('completed');
    const passages = await call(p, 'GET', `/api/files/${fine.id}/passages`);
    expect((passages.json.passages as { text: string }[]).map((x) => x.text).join(' ')).toContain('Line 39: ordinary words compressed by LZW, number 308841');
  }, limit(300_000));

  it('a docx whose parts unpack to 1 GB is refused before any reader unpacks it', async () => {
    const r = await processFile('bomb.docx', docxZipBomb(1024));
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^The Word document unpacks to more than 101 MB \(1 MB on disk, over 1,009 times its size\); it looks built to exhaust memory/);
  }, limit(300_000));

  it('a declared range of 17 billion cells around one real cell is read as that one cell', async () => {
    const r = await processFile('declared.xlsx', xlsxRangeBomb());
    expect(r.status).toBe('completed');
    const detail = await call(p, 'GET', `/api/files/${r.id}`);
    expect(detail.json.metadata).toMatchObject({ sheets: 1, rows: 1 });
  }, limit(60_000));

  it('text and a docx made of one 4-8 MB run without spaces complete, in passages of bounded size', async () => {
    const txt = await processFile('run.txt', longRunText(8));
    expect(txt.status).toBe('completed');
    const docx = await processFile('run.docx', longRunDocx(4));
    expect(docx.status).toBe('completed');
    const detail = await call(p, 'GET', `/api/files/${docx.id}`);
    expect(detail.json.passages).toBeGreaterThan(3000);
    // The same cut the worker makes: every passage is at most the chunker's maximum plus its overlap.
    expect(chunkText('x'.repeat(50_000)).every((t) => t.length <= 1250 + 151)).toBe(true);
  }, limit(300_000));

  it('data under the decode cap that still needs more memory than allowed is stopped by the memory limit of its process', async () => {
    // RunLength data that pdf.js decodes to 128 MB (under the 160 MB cap of the guard), read with a 160 MB memory limit.
    const up = await upload(p, 'rle.pdf', pdfRunLengthBomb(128));
    const row = { fileId: up.json.id as number, path: path.join(p.dir, 'files', String(up.json.id)), ext: 'pdf', kind: 'pdf', filename: 'rle.pdf', bytes: fs.statSync(path.join(p.dir, 'files', String(up.json.id))).size, dbPath: path.join(p.dir, 'agent-desk.sqlite') };
    const r = await runExtraction(row, { maxRssMb: 160 });
    expect(r).toEqual({ ok: false, code: 'too_large', error: 'Reading this file needed more than 160 MB of memory and was stopped; it may be damaged or built to exhaust memory.' });
  }, limit(300_000));

  it('a file that overstays its time budget is stopped with a reason', async () => {
    const up = await upload(p, 'slow.txt', 'fine text');
    const file = path.join(p.dir, 'files', String(up.json.id));
    // A budget too short for any reader to start: the parent kills the process.
    const r = await runExtraction({ fileId: up.json.id, path: file, ext: 'txt', kind: 'text', filename: 'slow.txt', bytes: 9, dbPath: path.join(p.dir, 'agent-desk.sqlite') }, { timeoutMs: 1 });
    expect(r).toMatchObject({ ok: false, code: 'timeout' });
    if (!r.ok) expect(r.error).toMatch(/^Reading this file took longer than 0 seconds \(the budget for its size\) and was stopped/);
  }, limit(60_000));
});

describe('zip and PDF guards', () => {
  it('measures RunLength streams from their length bytes: 256 MB from 4 MB is refused, 3 MB passes', async () => {
    const bomb = pdfRunLengthBomb(256);
    await expect(checkPdfStreams(bomb, limitsFor(bomb.length))).rejects.toThrow('The PDF holds compressed data that expands to more than 160 MB (4 MB on disk); it looks built to exhaust memory and was not read.');
    const fine = pdfRunLengthBomb(3);
    await expect(checkPdfStreams(fine, limitsFor(fine.length))).resolves.toBeUndefined();
  });

  it('counts LZW output exactly without decoding it, and refuses an LZW bomb alone or behind Flate', async () => {
    // Bytes that make the encoder clear its dictionary several times, with long and short matches.
    const text = Buffer.from(Array.from({ length: 3000 }, (_, i) => `w${(i * 2654435761) % 9973} ${'ab'.repeat(i % 9)};`).join(''));
    const codes = lzwEncode(text);
    expect(codes.length).toBeLessThan(text.length);
    expect(new LzwCounter(Infinity).push(codes)).toBe(text.length);
    const { data, size } = lzwBomb(1024);
    expect(size).toBeGreaterThan(1024 * 1024 * 1024);
    expect(new LzwCounter(Infinity).push(data)).toBe(size);
    const alone = pdfWithContent(data, '/LZWDecode');
    await expect(checkPdfStreams(alone, limitsFor(alone.length))).rejects.toThrow('The PDF holds compressed data that expands to more than 160 MB (413 KB on disk); it looks built to exhaust memory and was not read.');
    const chained = pdfWithContent(zlib.deflateSync(data), '[/FlateDecode /LZWDecode]');
    await expect(checkPdfStreams(chained, limitsFor(chained.length))).rejects.toThrow(/^The PDF holds compressed data that expands to more than 160 MB/);
    const small = pdfWithContent(lzwBomb(100).data, '/LZW');
    await expect(checkPdfStreams(small, limitsFor(small.length))).resolves.toBeUndefined();
  });

  /** Rewrites every central-directory entry's uncompressed size: a zip that lies about what it holds. */
  const declare = (zip: Buffer, size: number) => {
    const b = Buffer.from(zip);
    for (let i = b.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); i >= 0; i = b.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), i + 4)) b.writeUInt32LE(size, i + 24);
    return b;
  };

  it('passes an ordinary docx, and counts what the data inflates to, not what the zip declares', async () => {
    const docx = await makeDocx(['An ordinary paragraph.']);
    await expect(checkZip(docx, limitsFor(docx.length))).resolves.toBeUndefined();
    const liar = declare(docxZipBomb(512), 1000);
    await expect(checkZip(liar, limitsFor(liar.length), 'Word document')).rejects.toThrow(/^The Word document unpacks to more than 51 MB \(520 KB on disk, over 100 times its size\)/);
  });

  it('reads ZIP64 sizes from the extra field instead of refusing 0xFFFFFFFF as 4 GB', async () => {
    const docx = await makeDocx(['Sizes in the ZIP64 extra field.']);
    // Rebuild each central entry with sizes 0xFFFFFFFF and the real ones in a 0x0001 extra field.
    const out: Buffer[] = [];
    let at = docx.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const cdStart = at;
    let count = 0;
    while (docx.readUInt32LE(at) === 0x02014b50) {
      const nameLen = docx.readUInt16LE(at + 28);
      const len = 46 + nameLen + docx.readUInt16LE(at + 30) + docx.readUInt16LE(at + 32);
      const head = Buffer.from(docx.subarray(at, at + 46 + nameLen));
      const extra = Buffer.alloc(20);
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
      extra.writeBigUInt64LE(BigInt(head.readUInt32LE(24)), 4);
      extra.writeBigUInt64LE(BigInt(head.readUInt32LE(20)), 12);
      head.writeUInt32LE(0xffffffff, 20);
      head.writeUInt32LE(0xffffffff, 24);
      head.writeUInt16LE(20, 30);
      head.writeUInt16LE(0, 32);
      out.push(head, extra);
      at += len;
      count++;
    }
    const cd = Buffer.concat(out);
    const eocd = Buffer.from(docx.subarray(at, at + 22));
    eocd.writeUInt16LE(count, 8);
    eocd.writeUInt16LE(count, 10);
    eocd.writeUInt32LE(cd.length, 12);
    eocd.writeUInt32LE(cdStart, 16);
    eocd.writeUInt16LE(0, 20);
    const zip64 = Buffer.concat([docx.subarray(0, cdStart), cd, eocd]);
    await expect(checkZip(zip64, limitsFor(zip64.length))).resolves.toBeUndefined();
  });
});
