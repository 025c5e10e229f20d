import { useAuth } from '../stores/auth';
import { watchingAuth } from './auth-watch';
import { bridgeTransport } from './bridge-transport';
import { createClient, type Client } from './client';
import { httpTransport } from './http-transport';

const transport = typeof window !== 'undefined' && window.agentDesk ? bridgeTransport(window.agentDesk) : httpTransport();

/**
 * The app's one client: the preload bridge when running in Electron, same-origin HTTP otherwise.
 * Any call answered 401 flips the app to its signed-out notice, whoever made it.
 */
export const api: Client = createClient(watchingAuth(transport, () => useAuth.getState().markSignedOut()));

export { ApiError, isAbort, messageOf, WORDED_HERE } from './errors';
export { ops } from './operations';
export type { Answer, CallInput } from '../../src-main/platform/contract/operation';
export type { Execution, ExecutionEvent, ExecutionContext } from '../../src-main/platform/contract/executions';
export type { FileObject, FileStatus } from '../../src-main/platform/contract/files';
export type { WebhookDelivery } from '../../src-main/platform/contract/webhook-deliveries';
