import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { findCycles, moduleGraph } from './module-graph.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Lints one planted file (never written to disk) with the project's own config. */
async function restrictedImports(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer boundaries (ARCHITECTURE.md), checked by lint', () => {
  it('refuses a module import planted in the engine and in ingest', async () => {
    expect(await restrictedImports('src-main/platform/engine/planted.ts', "import { ExecutionsStore } from '../modules/executions/store.js';\nexport const x = ExecutionsStore;\n")).toHaveLength(1);
    expect(await restrictedImports('src-main/platform/ingest/extract/planted.ts', "import type { FilesService } from '../../modules/files/service.js';\nexport type X = FilesService;\n")).toHaveLength(1);
  });

  it('refuses a transport import in a store or service, but lets routes use the router', async () => {
    expect(await restrictedImports('src-main/platform/modules/files/planted-store.ts', "import { createRouter } from '../../transports/http/router.js';\nexport const x = createRouter;\n")).toHaveLength(1);
    expect(await restrictedImports('src-main/platform/modules/files/routes.ts', "import { createRouter } from '../../transports/http/router.js';\nexport const x = createRouter;\n")).toHaveLength(0);
  });

  it('refuses the desktop shell reaching past the platform entry and kernel', async () => {
    expect(await restrictedImports('src-main/desktop/planted.ts', "import { FilesService } from '../platform/modules/files/service.js';\nexport const x = FilesService;\n")).toHaveLength(1);
    expect(await restrictedImports('src-main/desktop/planted.ts', "import { createPlatform } from '../platform/platform.js';\nimport { DEFAULT_USER_ID } from '../platform/kernel/context.js';\nexport const x = [createPlatform, DEFAULT_USER_ID];\n")).toHaveLength(0);
  });

  it('refuses electron anywhere in the platform, and kernel code importing the engine', async () => {
    expect(await restrictedImports('src-main/platform/modules/app-settings/planted.ts', "import { app } from 'electron';\nexport const x = app;\n")).toHaveLength(1);
    expect(await restrictedImports('src-main/platform/kernel/planted.ts', "import { buildContext } from '../engine/context.js';\nexport const x = buildContext;\n")).toHaveLength(1);
  });
});

describe('module dependencies', () => {
  it('finds a planted cycle', () => {
    const planted = new Map([
      ['agents', new Set<string>()],
      ['files', new Set(['agents', 'executions'])],
      ['executions', new Set(['files'])],
    ]);
    expect(findCycles(planted)).toEqual(['executions -> files -> executions']);
  });

  it('has no cycle between the platform modules', () => {
    const graph = moduleGraph(path.join(ROOT, 'src-main/platform/modules'));
    expect(graph.size).toBeGreaterThan(8);
    expect(findCycles(graph)).toEqual([]);
  });
});
