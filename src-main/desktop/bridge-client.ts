import type { AgentDeskBridge, AppInfo, BridgeRequest, BridgeResponse, PickedFile } from '../../src-preload/api';
import { CHANNELS, type StreamControl, type StreamMessage } from './channels';

/** The part of ipcRenderer the preload uses (passed in, so this file imports nothing of Electron). */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  postMessage(channel: string, message: unknown, transfer?: MessagePort[]): void;
}

/**
 * The preload side of the bridge: exactly the AgentDeskBridge methods, each forwarding plain
 * data over IPC. Streams get their own MessageChannel; the main side receives port2.
 * Kept apart from src-preload/index.ts so the built preload exports nothing.
 */
export function createBridge(ipc: RendererIpc): AgentDeskBridge {
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
