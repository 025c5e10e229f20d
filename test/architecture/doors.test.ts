import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The /v1 doors share what they share through transports/gateway/: the Anthropic door imports
 * nothing of the OpenAI door, and the gateway imports neither. Which dialect an error is written in
 * comes from the matched operation, never from a test of the request's path.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const TRANSPORTS = 'src-main/platform/transports';

type Source = { name: string; text: string };

const read = (dir: string): Source[] =>
  fs
    .readdirSync(path.join(ROOT, dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ name: `${dir}/${f}`, text: fs.readFileSync(path.join(ROOT, dir, f), 'utf8') }));

const IMPORT = /\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g;

/** Imports that cross between the doors: anthropic -> openai, gateway -> either door. */
export function doorCrossings(files: Source[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const room = /transports\/(anthropic|gateway)\//.exec(f.name)?.[1];
    if (!room) continue;
    const forbidden = room === 'anthropic' ? ['openai'] : ['openai', 'anthropic'];
    for (const m of f.text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(f.name), spec));
      if (forbidden.some((door) => target.startsWith(`${TRANSPORTS}/${door}/`))) out.push(`${f.name}: ${spec}`);
    }
  }
  return out;
}

/** A test of the request's path that names a door: `/v1...` in a regex literal, or a string compared with or matched against a path. */
const PATH_TEST = /\/\^?\\\/\(?(?:v1|api)\b|(?:startsWith|===|includes)\s*\(?\s*['"`]\/(?:v1|api)\//g;

export function dialectByPath(files: Source[]): string[] {
  return files.flatMap((f) => [...f.text.matchAll(PATH_TEST)].map((m) => `${f.name}: ${m[0]}`));
}

/** Where errors are mapped to a dialect. */
const ERROR_MAPPERS = [`${TRANSPORTS}/http/app.ts`, `${TRANSPORTS}/http/errors.ts`, `${TRANSPORTS}/openai/errors.ts`, `${TRANSPORTS}/anthropic/errors.ts`];

describe('the doors (ARCHITECTURE.md)', () => {
  it('finds planted crossings: the Anthropic door importing the OpenAI door, the gateway importing a door', () => {
    expect(doorCrossings([{ name: `${TRANSPORTS}/anthropic/planted.ts`, text: "import { startChat } from '../openai/chat.js';\n" }])).toHaveLength(1);
    expect(
      doorCrossings([{ name: `${TRANSPORTS}/gateway/planted.ts`, text: "import type { X } from '../anthropic/read.js';\nexport { y } from '../openai/shapes.js';\nimport { z } from './gateway.js';\n" }]),
    ).toHaveLength(2);
    expect(doorCrossings([{ name: `${TRANSPORTS}/openai/planted.ts`, text: "import { startGateway } from '../gateway/gateway.js';\n" }])).toEqual([]);
  });

  it('the doors meet only in transports/gateway', () => {
    const files = [...read(`${TRANSPORTS}/anthropic`), ...read(`${TRANSPORTS}/gateway`)];
    expect(files.length).toBeGreaterThan(8);
    expect(doorCrossings(files)).toEqual([]);
  });

  it('finds a planted dialect chosen by path', () => {
    const planted = [
      "const OPENAI_PATHS = /^\\/(v1\\/|api\\/agents\\/[^/]+\\/openai\\/)/;",
      "export const isAnthropicPath = (path: string) => path === '/v1/messages' || path.startsWith('/v1/messages/');",
    ].join('\n');
    expect(dialectByPath([{ name: 'planted.ts', text: planted }])).toHaveLength(3);
  });

  it('no error mapper picks a dialect by path', () => {
    const files = ERROR_MAPPERS.map((name) => ({ name, text: fs.readFileSync(path.join(ROOT, name), 'utf8') }));
    expect(dialectByPath(files)).toEqual([]);
  });
});
