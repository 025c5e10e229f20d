import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { ROOT, sourcesUnder, type Source } from './sources.js';
import { facadeMethods, storesImportingFeatures, storesOutsideStores } from './renderer-rooms.js';

/**
 * The renderer's rooms: it calls operations by name (`api.call(ops.getAgent, …)`), never through a
 * method written per operation; its zustand stores live in stores/, and stores import no feature
 * (a feature builds on stores, never the other way).
 */

const planted = (name: string, text: string): Source[] => [{ name, text }];

/** Lints one planted file (never written to disk) with the project's own config. */
async function restrictedImports(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the renderer writes no operation facade', () => {
  it('finds planted forwarders, however they are written, and leaves calls and real work alone', () => {
    const facade = `import { api, ops } from '../api';
import { agentOperations as A } from '../../src-main/platform/contract/agents';
export const agents = { get: (id: number) => api.call(ops.getAgent, { params: { id } }), list: async () => await api.call(A.listAgents, {}) };
export function deleteAgent(id: number) { return api.call(ops.deleteAgent, { params: { id } }); }
const remote = { async settings() { return api.call(ops.getRemoteSettings, {}); } };
export const stream = (id: number, on: () => void) => api.stream(ops.streamAgentResponse, { params: { id } }, on);
`;
    expect(facadeMethods(planted('src-renderer/features/planted.ts', facade)).map((l) => l.split(': ')[1])).toEqual(['get', 'list', 'deleteAgent', 'settings', 'stream']);

    const calls = `import { api, ops } from '../../api';
import { useLoad } from '../../components/use-load';
export function Keys() { const keys = useLoad(() => api.call(ops.listKeys, {}), []); return keys; }
export const store = { async load() { set({ keys: await api.call(ops.listKeys, {}) }); }, async remove(id: number) { await api.call(ops.revokeKey, { params: { id } }); toast('gone'); } };
declare function set(x: unknown): void; declare function toast(x: string): void;
`;
    expect(facadeMethods(planted('src-renderer/features/keys/planted.tsx', calls))).toEqual([]);
  });

  it('holds none in the renderer', () => {
    expect(facadeMethods(sourcesUnder('src-renderer'))).toEqual([]);
  });
});

describe('stores import no feature, and zustand stores live in stores/', () => {
  it('lint refuses a feature imported by a store, and zustand create outside stores/', async () => {
    expect(await restrictedImports('src-renderer/stores/planted.ts', "import { ROOT } from '../features/chat/tree';\nexport const x = ROOT;\n")).toHaveLength(1);
    expect(await restrictedImports('src-renderer/stores/planted.ts', "import { useAgents } from './agents';\nimport { create } from 'zustand';\nexport const x = [useAgents, create];\n")).toHaveLength(0);
    expect(await restrictedImports('src-renderer/features/chat/planted.ts', "import { create } from 'zustand';\nexport const usePlanted = create(() => ({}));\n")).toHaveLength(1);
    expect(await restrictedImports('src-renderer/components/planted.tsx', "import { createStore } from 'zustand';\nexport const s = createStore(() => ({}));\n")).toHaveLength(1);
    expect(await restrictedImports('src-renderer/features/chat/planted.ts', "import { useShallow } from 'zustand/react/shallow';\nexport const x = useShallow;\n")).toHaveLength(0);
  });

  it('finds planted lines by text too (what the counts in the report measure)', () => {
    expect(storesImportingFeatures(planted('src-renderer/stores/x.ts', "import { ROOT } from '../features/chat/tree';\n"))).toHaveLength(1);
    expect(storesImportingFeatures(planted('src-renderer/features/x.ts', "import { ROOT } from '../features/chat/tree';\n"))).toHaveLength(0);
    expect(storesOutsideStores(planted('src-renderer/features/x.ts', "import { create } from 'zustand';\n"))).toHaveLength(1);
    expect(storesOutsideStores(planted('src-renderer/stores/x.ts', "import { create } from 'zustand';\n"))).toHaveLength(0);
  });

  it('hold in the renderer', () => {
    const files = sourcesUnder('src-renderer');
    expect(storesImportingFeatures(files)).toEqual([]);
    expect(storesOutsideStores(files)).toEqual([]);
    expect(files.filter((f) => f.name.startsWith('src-renderer/stores/') && /\bcreate</.test(f.text)).length).toBeGreaterThan(15);
  });
});
