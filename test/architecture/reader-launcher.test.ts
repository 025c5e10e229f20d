import { describe, expect, it } from 'vitest';
import { linesWhere, sourcesUnder, type Source } from './sources.js';

/** The one reader launcher: the protocol's messages and its server, under Node and Electron alike. */
const HOME = 'src-main/platform/kernel/reader-launcher.ts';
const SERVES = [/\.op\s*===\s*'spawn'/, /op:\s*'close',\s*id/, /\{\s*op:\s*'spawn';\s*id:\s*number/];

export function launchersElsewhere(files: Source[]): string[] {
  return linesWhere(files, (name, line) => name !== HOME && SERVES.some((re) => re.test(line)));
}

describe('one process path for readers (kernel/reader-launcher.ts serves the spawner and the desktop main process)', () => {
  it('finds a planted second launcher', () => {
    const planted = "type FromParent = { op: 'spawn'; id: number; entry: string } | { op: 'kill'; id: number };\nif (m.op === 'spawn') return spawn(m);\ntell({ op: 'close', id: m.id, code, signal, stderr });\n";
    expect(launchersElsewhere([{ name: 'src-main/platform/ingest/spawner.ts', text: planted }])).toHaveLength(3);
    expect(launchersElsewhere([{ name: HOME, text: planted }])).toEqual([]);
  });

  it('holds for src-main: the spawner and the desktop launcher both serve through the kernel', () => {
    const files = sourcesUnder('src-main');
    expect(launchersElsewhere(files)).toEqual([]);
    const text = (n: string) => files.find((f) => f.name === n)?.text ?? '';
    expect(text('src-main/platform/ingest/spawner.ts')).toMatch(/serveReaderLauncher\(/);
    expect(text('src-main/desktop/reader-launcher.ts')).toMatch(/from '\.\.\/platform\/kernel\/reader-launcher\.js'/);
  });
});
