import { agentOperations } from '../../src-main/platform/contract/agents';
import { appOperations } from '../../src-main/platform/contract/app-settings';
import { audioOperations, voiceOperations } from '../../src-main/platform/contract/audio';
import { executionOperations } from '../../src-main/platform/contract/executions';
import { fileOperations } from '../../src-main/platform/contract/files';
import { keyOperations } from '../../src-main/platform/contract/keys';
import { memoryOperations } from '../../src-main/platform/contract/memories';
import { modelOperations } from '../../src-main/platform/contract/models';
import { ocrOperations } from '../../src-main/platform/contract/ocr';
import { remoteOperations } from '../../src-main/platform/contract/remote';
import { retrievalOperations } from '../../src-main/platform/contract/retrieval';
import { scheduleOperations } from '../../src-main/platform/contract/schedules';
import { sessionOperations } from '../../src-main/platform/contract/sessions';
import { providerOperations } from '../../src-main/platform/contract/settings';
import { stepApprovalOperations } from '../../src-main/platform/contract/step-approvals';
import { mcpServerOperations } from '../../src-main/platform/contract/tools';
import { usageOperations } from '../../src-main/platform/contract/usage';
import { webhookDeliveryOperations } from '../../src-main/platform/contract/webhook-deliveries';
import { webhookOperations } from '../../src-main/platform/contract/webhooks';

/** The contract's tables the app calls (an operation's name is unique across all of them; test/renderer/operations checks it). */
export const operationTables = [
  agentOperations,
  appOperations,
  audioOperations,
  voiceOperations,
  executionOperations,
  fileOperations,
  keyOperations,
  memoryOperations,
  modelOperations,
  ocrOperations,
  remoteOperations,
  retrievalOperations,
  scheduleOperations,
  sessionOperations,
  providerOperations,
  stepApprovalOperations,
  mcpServerOperations,
  usageOperations,
  webhookDeliveryOperations,
  webhookOperations,
] as const;

/**
 * Every operation the app calls, by its contract name: `api.call(ops.getAgent, { params: { id } })`.
 * The declarations themselves, not wrappers: the path, the query, the body type and the answer's
 * schema come from the contract.
 */
export const ops = {
  ...agentOperations,
  ...appOperations,
  ...audioOperations,
  ...voiceOperations,
  ...executionOperations,
  ...fileOperations,
  ...keyOperations,
  ...memoryOperations,
  ...modelOperations,
  ...ocrOperations,
  ...remoteOperations,
  ...retrievalOperations,
  ...scheduleOperations,
  ...sessionOperations,
  ...providerOperations,
  ...stepApprovalOperations,
  ...mcpServerOperations,
  ...usageOperations,
  ...webhookDeliveryOperations,
  ...webhookOperations,
};
