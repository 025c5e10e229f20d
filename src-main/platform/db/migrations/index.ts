import type { Migration } from '../migrate.js';
import { m001Core } from './001_core.js';
import { m004WebhookDeliveries } from './004_webhook_deliveries.js';
import { m002Files } from './002_files.js';
import { m003Executions } from './003_executions.js';
import { m006RemoteAgents } from './006_remote_agents.js';

/** Every migration, one per file, numbered. Append only: never edit one that has shipped. */
export const migrations: Migration[] = [m001Core, m002Files, m006RemoteAgents, m004WebhookDeliveries, m003Executions];
