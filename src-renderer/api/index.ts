import { bridgeTransport } from './bridge-transport';
import { createClient, type Client } from './client';
import { httpTransport } from './http-transport';

/** The app's one client: the preload bridge when running in Electron, same-origin HTTP otherwise. */
export const api: Client = createClient(typeof window !== 'undefined' && window.agentDesk ? bridgeTransport(window.agentDesk) : httpTransport());

export { ApiError, isAbort, messageOf } from './errors';
export type { Execution, ExecutionEvent, ExecutionContext } from '../../src-main/platform/contract/executions';
export type { FileObject, FileStatus } from '../../src-main/platform/contract/files';
export type { WebhookDelivery } from '../../src-main/platform/contract/webhook-deliveries';
