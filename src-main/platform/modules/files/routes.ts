import { createRoute, z } from '@hono/zod-openapi';
import type { FilesService } from './service.js';
import type { UsersService } from '../access/users.js';
import type { AgentsService } from '../agents/service.js';
import { createRouter, errorResponses, notFound, ok } from '../../transports/http/router.js';
import { AgentFileRemoved, AgentFileSet, AgentFileSetLinked, AgentFilesLink, FileDeleted, FileDetail, FileList, FileListQuery, FileObject, FileUpload } from '../../contract/files.js';
import { ErrorBody } from '../../contract/common.js';
import { laravelErrors } from '../../contract/messages.js';
import { ValidationError } from '../../kernel/errors.js';
import { requestWorkspace } from '../access/workspace.js';
import { receiveFilePart, uploadRequest } from '../../transports/http/multipart.js';

const FilePath = z.object({ fileId: z.string() });
const AgentPath = z.object({ agentId: z.string() });
const AgentFilePath = z.object({ agentId: z.string(), fileId: z.string() });
const multipart = { content: { 'multipart/form-data': { schema: FileUpload } }, required: true };
const tooLarge = { 413: { content: { 'application/json': { schema: ErrorBody } }, description: 'The upload is over the size limit' } };
const workspaceHeader = z.object({ 'x-workspace-id': z.string().optional() });

/** Hosted clients also link one file as `{"file_id": n}`: it reads as `file_ids: [n]`. */
function oneFileId(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const b = body as Record<string, unknown>;
  return b.file_ids === undefined && b.file_id !== undefined ? { ...b, file_ids: [b.file_id] } : body;
}

export function fileRoutes({ files, users, agents }: { files: FilesService; users: UsersService; agents: AgentsService }) {
  const r = createRouter();
  const tags = ['Files'];
  const principal = (c: { get(k: 'principal'): { userId: number } }) => c.get('principal').userId;

  // Uploads are streamed by busboy (never parsed into memory by a validator), so the route is
  // plain Hono and only described to the OpenAPI document.
  r.openAPIRegistry.registerPath({
    method: 'post',
    path: '/files',
    tags,
    summary: 'Upload a file (multipart, streamed to disk)',
    request: { headers: workspaceHeader, body: multipart },
    responses: { ...ok(FileObject), ...tooLarge, ...errorResponses },
  });
  r.post('/files', async (c) => {
    const userId = principal(c);
    const workspaceId = requestWorkspace(users, c);
    const received = await receiveFilePart(uploadRequest(c), files.uploadSpec());
    return c.json(await files.upload(workspaceId, userId, received), 200);
  });

  r.openapi(
    createRoute({ method: 'get', path: '/files', tags, summary: 'List files of the workspace', request: { query: FileListQuery, headers: workspaceHeader }, responses: { ...ok(FileList), ...errorResponses } }),
    (c) => {
      const workspaceId = requestWorkspace(users, c);
      return c.json({ data: files.list(workspaceId, c.req.valid('query')) }, 200);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/files/{fileId}', tags, summary: 'Get one file with what processing found (ext)', request: { params: FilePath }, responses: { ...ok(FileDetail), ...notFound('File'), ...errorResponses } }),
    (c) => c.json(files.detail(principal(c), c.req.valid('param').fileId), 200),
  );

  r.openapi(
    createRoute({ method: 'post', path: '/files/{fileId}/process', tags, summary: 'Process a file (extract, index); waits up to 100 s', request: { params: FilePath }, responses: { ...ok(FileObject), ...notFound('File'), ...errorResponses } }),
    async (c) => c.json(await files.process(principal(c), c.req.valid('param').fileId), 200),
  );

  r.openapi(
    createRoute({ method: 'delete', path: '/files/{fileId}', tags, summary: 'Delete a file, its passages and its links', request: { params: FilePath }, responses: { ...ok(FileDeleted), ...notFound('File'), ...errorResponses } }),
    (c) => c.json(files.delete(principal(c), c.req.valid('param').fileId), 200),
  );

  const atags = ['Agent files'];
  r.openapi(
    createRoute({ method: 'get', path: '/agents/{agentId}/files', tags: atags, summary: 'Files linked to an agent', request: { params: AgentPath }, responses: { ...ok(AgentFileSet), ...notFound('Agent'), ...errorResponses } }),
    (c) => c.json(files.agentFiles(principal(c), c.req.valid('param').agentId), 200),
  );

  // JSON `file_ids`, or the multipart variant of the spec's examples: a `file` that is uploaded and linked.
  r.openAPIRegistry.registerPath({
    method: 'post',
    path: '/agents/{agentId}/files',
    tags: atags,
    summary: 'Link files to an agent (linking a waiting file starts its processing); `{"file_id": n}` links one',
    request: { params: AgentPath, body: { content: { 'application/json': { schema: AgentFilesLink }, 'multipart/form-data': { schema: FileUpload } }, required: true } },
    responses: { ...ok(AgentFileSetLinked), ...notFound('Agent'), ...tooLarge, ...errorResponses },
  });
  r.post('/agents/:agentId/files', async (c) => {
    const userId = principal(c);
    const agentId = c.req.param('agentId');
    if (/^multipart\//i.test(c.req.header('content-type') ?? '')) {
      const agent = agents.get(userId, agentId);
      const file = await files.upload(agent.workspace_id, userId, await receiveFilePart(uploadRequest(c), files.uploadSpec()));
      return c.json(files.link(userId, agent.id, [file.id]), 200);
    }
    const parsed = AgentFilesLink.safeParse(oneFileId(await c.req.json().catch(() => ({}))), { reportInput: true });
    if (!parsed.success) {
      agents.get(userId, agentId); // an unknown agent is 404 before any body error
      throw new ValidationError(laravelErrors(parsed.error.issues));
    }
    return c.json(files.link(userId, agentId, parsed.data.file_ids), 200);
  });

  r.openapi(
    createRoute({ method: 'delete', path: '/agents/{agentId}/files/{fileId}', tags: atags, summary: 'Unlink a file from an agent', request: { params: AgentFilePath }, responses: { ...ok(AgentFileRemoved), ...notFound('Agent or file'), ...errorResponses } }),
    (c) => {
      const { agentId, fileId } = c.req.valid('param');
      return c.json(files.unlink(principal(c), agentId, fileId), 200);
    },
  );

  return r;
}
