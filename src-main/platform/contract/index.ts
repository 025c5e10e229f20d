// The one contract: every request and response shape, shared by the HTTP layer, the OpenAPI
// document and the renderer's client. Browser-safe: zod only.
export * from './common.js';
export * from './agents.js';
export * from './memories.js';
export * from './files.js';
export * from './webhooks.js';
export * from './webhook-deliveries.js';
export { laravelErrors } from './messages.js';
export * from './keys.js';
export * from './app-settings.js';
export * from './remote.js';
export * from './retrieval.js';
