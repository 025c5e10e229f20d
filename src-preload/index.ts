import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from '../src-main/desktop/bridge-client';

/**
 * The only thing the page gets: `window.agentDesk`, exactly the AgentDeskBridge methods.
 * No ipcRenderer, no Node, no Electron object crosses; each method forwards plain data.
 * Sandboxed (sandbox: true), so this is bundled to CommonJS with electron as its only import.
 */
contextBridge.exposeInMainWorld('agentDesk', createBridge(ipcRenderer));
