/**
 * IPC channel names and stream messages shared by the preload and the main-process bridge
 * (one place, so the two sides cannot drift apart).
 */
export const CHANNELS = {
  request: 'agent-desk:request',
  stream: 'agent-desk:stream',
  openFiles: 'agent-desk:open-files',
  appInfo: 'agent-desk:app-info',
} as const;

/** Main → renderer over the stream's MessagePort. */
export type StreamMessage = { type: 'chunk'; text: string } | { type: 'end'; status: number; error?: string };

/** Renderer → main over the stream's MessagePort. */
export type StreamControl = { type: 'cancel' };
