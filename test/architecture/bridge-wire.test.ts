import { describe, expect, it } from 'vitest';
import { linesWhere, sourcesUnder, type Source } from './sources.js';

const WIRE = 'src-main/platform/contract/bridge.ts';
/** The preload's page API is implemented in the desktop shell (bundled into the preload): that one type import is the implementation's. */
const IMPLEMENTS_PAGE_API = 'src-main/desktop/bridge-client.ts';

/** src-main reaching into src-preload, or the wire's messages declared again anywhere. */
export function wireElsewhere(files: Source[]): string[] {
  return linesWhere(files, (name, line) => {
    if (name === WIRE) return false;
    // The renderer may name the page's API (window.agentDesk) from src-preload; src-main may not.
    if (name.startsWith('src-main/') && /from\s+['"][^'"]*src-preload\//.test(line) && !(name === IMPLEMENTS_PAGE_API && /import type \{ AgentDeskBridge \}/.test(line))) return true;
    return /\binterface\s+(BridgeRequest|BridgeResponse)\b/.test(line) || /\{\s*t:\s*'(request|stream|cancel|response|chunk|end)';/.test(line);
  });
}

const importsWire = (f: Source | undefined) => !!f && /from\s+['"][^'"]*contract\/bridge(\.js)?['"]/.test(f.text);

describe("the bridge's wire in one module (contract/bridge.ts) both sides import", () => {
  it('finds a planted src-preload import in the platform and a wire declared again', () => {
    expect(wireElsewhere([{ name: 'src-main/platform/transports/port/requests.ts', text: "import type { BridgeRequest } from '../../../../src-preload/api.js';\n" }])).toHaveLength(1);
    expect(wireElsewhere([{ name: 'src-preload/api.ts', text: "export type ToPlatform =\n  | { t: 'request'; id: number; req: BridgeRequest };\nexport interface BridgeResponse {\n" }])).toHaveLength(2);
    expect(wireElsewhere([{ name: IMPLEMENTS_PAGE_API, text: "import type { AgentDeskBridge } from '../../src-preload/api';\n" }])).toEqual([]);
    expect(wireElsewhere([{ name: IMPLEMENTS_PAGE_API, text: "import type { ToPlatform } from '../../src-preload/api';\n" }])).toHaveLength(1);
  });

  it('holds for src-main, the preload and the renderer; the client and the server both import it', () => {
    const files = sourcesUnder('src-main', 'src-preload', 'src-renderer');
    expect(wireElsewhere(files)).toEqual([]);
    const byName = new Map(files.map((f) => [f.name, f]));
    expect(importsWire(byName.get('src-main/desktop/bridge-client.ts'))).toBe(true);
    expect(importsWire(byName.get('src-main/platform/transports/port/protocol.ts'))).toBe(true);
    expect(importsWire(byName.get('src-main/platform/transports/port/requests.ts'))).toBe(true);
  });
});
