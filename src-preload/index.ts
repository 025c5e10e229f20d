import { contextBridge, ipcRenderer } from 'electron';
import type { AgentDeskBridge, AppInfo, BridgeRequest, BridgeResponse, PickedFile } from './api';
import { CHANNELS, type StreamControl, type StreamMessage } from '../src-main/desktop/channels';

/**
 * The only thing the page gets: `window.agentDesk`, exactly the AgentDeskBridge methods.
 * No ipcRenderer, no Node, no Electron object crosses; each method forwards plain data.
 * Sandboxed (sandbox: true), so this is bundled to CommonJS with electron as its only import.
 */
export function createBridge(ipc: Pick<typeof ipcRenderer, 'invoke' | 'postMessage'>): AgentDeskBridge {
  return {
    request: (req: BridgeRequest) => ipc.invoke(CHANNELS.request, req) as Promise<BridgeResponse>,
    stream(req, onChunk, onEnd) {
      const { port1, port2 } = new MessageChannel();
      let ended = false;
      port1.onmessage = (e: MessageEvent<StreamMessage>) => {
        const m = e.data;
        if (ended) return;
        if (m.type === 'chunk') onChunk(m.text);
        else if (m.type === 'end') {
          ended = true;
          port1.close();
          onEnd(m.status, m.error);
        }
      };
      ipc.postMessage(CHANNELS.stream, req, [port2]);
      return () => {
        if (ended) return;
        ended = true;
        port1.postMessage({ type: 'cancel' } satisfies StreamControl);
        port1.close();
      };
    },
    openFiles: () => ipc.invoke(CHANNELS.openFiles) as Promise<PickedFile[]>,
    appInfo: () => ipc.invoke(CHANNELS.appInfo) as Promise<AppInfo>,
  };
}

contextBridge.exposeInMainWorld('agentDesk', createBridge(ipcRenderer));
