import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from '../src-main/desktop/bridge-client';

/**
 * The only thing the page gets: `window.agentDesk`, exactly the AgentDeskBridge methods.
 * No ipcRenderer, no Node, no Electron object crosses; requests and streams go as plain data over
 * the MessagePort to the platform process that the main process hands over.
 * Sandboxed (sandbox: true), so this is bundled to CommonJS with electron as its only import.
 */
contextBridge.exposeInMainWorld('agentDesk', createBridge(ipcRenderer));
