import { ErrorBody } from './common.js';
import { Execution } from './executions.js';
import { operations } from './operation.js';
import { StepDecision, StepPath } from './tools.js';

// Its own file: executions.ts imports tools.ts, so tools.ts cannot name Execution at load time.

const tags = ['Execution'] as const;
const conflict = { 409: ['Conflict', ErrorBody] } as const;

/** Approve and deny differ only in their last path segment and their summary. */
const stepDecision = <const V extends 'approve' | 'deny', const S extends string>(verb: V, summary: S) =>
  ({
    method: 'post',
    path: `/agent-responses/{id}/steps/{step}/${verb}` as const,
    tags,
    summary,
    params: StepPath,
    body: StepDecision,
    bodyOptional: true,
    response: Execution,
    notFound: 'Agent response',
    errors: conflict,
  }) as const;

/** POST /api/agent-responses/{id}/steps/{step}/approve|deny (ext): answers a tool call waiting for approval (modules/tools/routes.ts handles them). */
export const stepApprovalOperations = operations({
  approveStep: stepDecision('approve', 'Allow a tool call waiting for approval (ext); `{"always": true}` allows that tool from now on'),
  denyStep: stepDecision('deny', 'Deny a tool call waiting for approval (ext)'),
});
