import { ErrorBody } from './common.js';
import { Execution } from './executions.js';
import { operations } from './operation.js';
import { StepDecision, StepPath } from './tools.js';

// Its own file: executions.ts imports tools.ts, so tools.ts cannot name Execution at load time.

const tags = ['Execution'] as const;
const conflict = { 409: ['Conflict', ErrorBody] } as const;

/** POST /api/agent-responses/{id}/steps/{step}/approve|deny (ext): answers a tool call waiting for approval (modules/tools/routes.ts handles them). */
export const stepApprovalOperations = operations({
  approveStep: {
    method: 'post',
    path: '/agent-responses/{id}/steps/{step}/approve',
    tags,
    summary: 'Allow a tool call waiting for approval (ext); `{"always": true}` allows that tool from now on',
    params: StepPath,
    body: StepDecision,
    bodyOptional: true,
    response: Execution,
    notFound: 'Agent response',
    errors: conflict,
  },
  denyStep: {
    method: 'post',
    path: '/agent-responses/{id}/steps/{step}/deny',
    tags,
    summary: 'Deny a tool call waiting for approval (ext)',
    params: StepPath,
    body: StepDecision,
    bodyOptional: true,
    response: Execution,
    notFound: 'Agent response',
    errors: conflict,
  },
});
