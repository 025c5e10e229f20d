import type { Migration } from '../migrate.js';
import { m001Core } from './001_core.js';
import { m002Files } from './002_files.js';
import { m003Executions } from './003_executions.js';
import { m004WebhookDeliveries } from './004_webhook_deliveries.js';
import { m005RemoteAgents } from './005_remote_agents.js';
import { m006ModelDownloads } from './006_model_downloads.js';
import { m007SessionBranches } from './007_session_branches.js';
import { m008McpTools } from './008_mcp_tools.js';
import { m009RetrievalVectors } from './009_retrieval_vectors.js';
import { m010FileContentHash } from './010_file_content_hash.js';
import { m011JobsKindDue } from './011_jobs_kind_due.js';
import { m012Schedules } from './012_schedules.js';
import { m013WebhookEvents } from './013_webhook_events.js';
import { m014ExecutionTree } from './014_execution_tree.js';
import { m015ScheduleRunExecutions } from './015_schedule_run_executions.js';
import { m017SessionSettingsSearch } from './017_session_settings_search.js';
import { m016WebhookDescription } from './016_webhook_description.js';
import { m018ExecutionFirstToken } from './018_execution_first_token.js';
import { m019CollectionInContext } from './019_collection_in_context.js';
import { m020SessionSearchOffStart } from './020_session_search_off_start.js';

/**
 * Every migration, one per file, numbered without gaps. Append only: never edit one that has
 * shipped, and never number a new one below the newest (a database at version N skips it).
 */
export const migrations: Migration[] = [m001Core, m002Files, m003Executions, m004WebhookDeliveries, m005RemoteAgents, m006ModelDownloads, m007SessionBranches, m008McpTools, m009RetrievalVectors, m010FileContentHash, m011JobsKindDue, m012Schedules, m013WebhookEvents, m014ExecutionTree, m015ScheduleRunExecutions, m016WebhookDescription, m017SessionSettingsSearch, m018ExecutionFirstToken, m019CollectionInContext, m020SessionSearchOffStart];
