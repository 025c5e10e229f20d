import type { AppInfo, BridgeRequest, BridgeResponse, EngineState, FromPlatform, PickedFile, ToPlatform } from '../platform/contract/bridge';
import type { AgentDeskBridge } from '../../src-preload/api';
import { CHANNELS, ENGINE_GAVE_UP, ENGINE_RESTARTING } from './channels';
import { desktopWords, isDesktopLocale, type DesktopLocale } from './words';

/** The part of ipcRenderer the preload uses (passed in, so this file imports nothing of Electron). */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: { ports: readonly MessagePort[] }, ...args: unknown[]) => void): unknown;
}

interface Call {
  resolve?: (res: BridgeResponse) => void;
  reject?: (err: Error) => void;
  onChunk?: (text: string) => void;
  onEnd?: (status: number, error?: string) => void;
}

/**
 * The preload side of the bridge: exactly the AgentDeskBridge methods. Requests and streams go
 * over one MessagePort straight to the platform process, multiplexed by id; the main process
 * hands the port over (and a new one when the platform restarted). Calls made while there is no
 * port wait for the next; calls under way when the platform stops fail with a plain sentence.
 * Kept apart from src-preload/index.ts so the built preload exports nothing.
 */
export function createBridge(ipc: RendererIpc): AgentDeskBridge {
  let port: MessagePort | null = null;
  let nextId = 1;
  const calls = new Map<number, Call>();
  const queue: ToPlatform[] = [];
  const watchers = new Set<(state: EngineState) => void>();
  let engine: EngineState = { running: true };
  // The page's language (it says when it changes): the notices made here speak it.
  let locale: DesktopLocale = 'en';
  const words = () => desktopWords(locale).engine;
  /** The main process words the engine's state in English; the page reads it in its own language. */
  const engineText = (m: string | undefined) => (m === ENGINE_RESTARTING ? words().restarting : m === ENGINE_GAVE_UP ? words().gaveUp : m);

  const send = (m: ToPlatform) => {
    if (port) port.postMessage(m);
    else queue.push(m);
  };
  const receive = (e: MessageEvent<FromPlatform>) => {
    const m = e.data;
    const call = calls.get(m.id);
    if (!call) return;
    if (m.t === 'response') {
      calls.delete(m.id);
      call.resolve?.(m.res);
    } else if (m.t === 'chunk') call.onChunk?.(m.text);
    else if (m.t === 'end') {
      calls.delete(m.id);
      call.onEnd?.(m.status, m.error);
    }
  };
  /** Everything under way on a port that is gone fails; nothing waits forever. */
  const failSent = () => {
    const queued = new Set(queue.map((m) => m.id));
    for (const [id, call] of calls) {
      if (queued.has(id)) continue;
      calls.delete(id);
      call.reject?.(new Error(words().stopped));
      call.onEnd?.(0, words().stopped);
    }
  };
  const tell = (state: EngineState) => {
    engine = state;
    for (const w of watchers) w(state);
  };

  ipc.on(CHANNELS.port, (event) => {
    const [next] = event.ports;
    if (!next) return;
    port?.close();
    port = next;
    port.onmessage = receive;
    for (const m of queue.splice(0)) port.postMessage(m);
    if (!engine.running) tell({ running: true });
  });
  ipc.on(CHANNELS.engine, (_event, state) => {
    const s = state as EngineState;
    if (!s.running) {
      port?.close();
      port = null;
      // Calls still queued were never sent: they wait for the restarted platform.
      failSent();
    }
    tell(s.message ? { ...s, message: engineText(s.message) } : s);
  });
  ipc.send(CHANNELS.connect);

  return {
    request: (req: BridgeRequest) =>
      new Promise<BridgeResponse>((resolve, reject) => {
        const id = nextId++;
        calls.set(id, { resolve, reject });
        send({ t: 'request', id, req });
      }),
    stream(req, onChunk, onEnd) {
      const id = nextId++;
      let ended = false;
      calls.set(id, {
        onChunk: (t) => !ended && onChunk(t),
        onEnd: (status, error) => {
          if (ended) return;
          ended = true;
          onEnd(status, error);
        },
      });
      send({ t: 'stream', id, req });
      return () => {
        if (ended) return;
        ended = true;
        calls.delete(id);
        const queued = queue.findIndex((m) => m.id === id);
        if (queued >= 0) queue.splice(queued, 1);
        else send({ t: 'cancel', id });
      };
    },
    openFiles: () => ipc.invoke(CHANNELS.openFiles) as Promise<PickedFile[]>,
    appInfo: () => ipc.invoke(CHANNELS.appInfo) as Promise<AppInfo>,
    onEngine(listener) {
      watchers.add(listener);
      if (!engine.running) listener(engine);
      return () => void watchers.delete(listener);
    },
    setLocale(next) {
      if (!isDesktopLocale(next)) return;
      locale = next;
      ipc.send(CHANNELS.locale, next);
    },
  };
}
