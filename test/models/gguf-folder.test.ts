/**
 * The models folder as routing reads it: its listing is kept while the folder is unchanged, and a
 * file added, renamed or removed is seen by the very next look (another process may put it there).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listGguf } from '../../src-main/platform/modules/providers/service.js';

describe('the GGUF files of a folder', () => {
  it('follows files added, renamed and removed, and a folder that comes and goes', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gguf-folder-')), 'models');
    expect(listGguf(dir)).toEqual([]);
    fs.mkdirSync(dir);
    expect(listGguf(dir)).toEqual([]);
    fs.writeFileSync(path.join(dir, 'a.gguf'), 'x');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    expect(listGguf(dir)).toEqual(['a.gguf']);
    expect(listGguf(dir)).toEqual(['a.gguf']);
    fs.renameSync(path.join(dir, 'a.gguf'), path.join(dir, 'b.GGUF'));
    expect(listGguf(dir)).toEqual(['b.GGUF']);
    // A caller may change what it got without changing what the next caller gets.
    listGguf(dir).push('c.gguf');
    expect(listGguf(dir)).toEqual(['b.GGUF']);
    fs.rmSync(path.join(dir, 'b.GGUF'));
    expect(listGguf(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true });
    expect(listGguf(dir)).toEqual([]);
  });
});
