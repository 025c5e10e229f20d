import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export type Source = { name: string; text: string };

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Every .ts/.tsx file under `folders` (relative to the project root), named relative to the root with forward slashes. */
export function sourcesUnder(...folders: string[]): Source[] {
  return folders.flatMap((folder) =>
    walk(path.join(ROOT, folder))
      .filter((f) => /\.tsx?$/.test(f))
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
      .map((name) => ({ name, text: fs.readFileSync(path.join(ROOT, name), 'utf8') })),
  );
}

/** The lines `keep` selects, as `file:line: text`. */
export function linesWhere(files: Source[], keep: (name: string, line: string) => boolean): string[] {
  return files.flatMap(({ name, text }) => text.split('\n').flatMap((line, i) => (keep(name, line) ? [`${name}:${i + 1}: ${line.trim()}`] : [])));
}
