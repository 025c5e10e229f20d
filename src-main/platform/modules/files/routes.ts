import type { FilesService } from './service.js';
import type { UsersService } from '../access/users.js';
import type { AgentsService } from '../agents/service.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { AgentFilesLink, fileOperations } from '../../contract/files.js';
import { laravelErrors } from '../../contract/messages.js';
import { ValidationError } from '../../kernel/errors.js';
import { requestWorkspace } from '../access/workspace.js';
import { receiveFilePart, uploadRequest } from '../../transports/http/multipart.js';
import { joinPassages } from './text.js';

/** Hosted clients also link one file as `{"file_id": n}`: it reads as `file_ids: [n]`. */
function oneFileId(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const b = body as Record<string, unknown>;
  return b.file_ids === undefined && b.file_id !== undefined ? { ...b, file_ids: [b.file_id] } : body;
}

export function fileRoutes({ files, users, agents }: { files: FilesService; users: UsersService; agents: AgentsService }) {
  const r = createRouter();
  serveOperations(r, fileOperations, {
    uploadFile: async ({ userId }, c) => {
      const workspaceId = requestWorkspace(users, c);
      const received = await receiveFilePart(uploadRequest(c), files.uploadSpec());
      return files.upload(workspaceId, userId, received);
    },
    listFiles: ({ query }, c) => ({ data: files.list(requestWorkspace(users, c), query) }),
    getFile: ({ userId, params }) => files.detail(userId, params.fileId),
    getFileText: ({ userId, params, query }) => {
      const { file, total } = files.passages(userId, params.fileId, { offset: 0, limit: 1 });
      const read = joinPassages((offset, limit) => files.passages(userId, file.id, { offset, limit }).passages, query.max_chars);
      return { id: file.id, filename: file.filename, status: file.status, ...read, passages: total };
    },
    // The wait ends with the client (the processing itself goes on: it is the file's, not the request's).
    processFile: ({ userId, params }, c) => files.process(userId, params.fileId, undefined, c.req.raw.signal),
    deleteFile: ({ userId, params }) => files.delete(userId, params.fileId),
    listAgentFiles: ({ userId, params }) => files.agentFiles(userId, params.agentId),
    // JSON `file_ids` (read here, for the hosted clients' `file_id`), or a multipart `file` uploaded and linked.
    linkAgentFiles: async ({ userId, params: { agentId } }, c) => {
      if (/^multipart\//i.test(c.req.header('content-type') ?? '')) {
        const agent = agents.get(userId, agentId);
        const file = await files.upload(agent.workspace_id, userId, await receiveFilePart(uploadRequest(c), files.uploadSpec()));
        return files.link(userId, agent.id, [file.id]);
      }
      const parsed = AgentFilesLink.safeParse(oneFileId(await c.req.json().catch(() => ({}))), { reportInput: true });
      if (!parsed.success) {
        agents.get(userId, agentId); // an unknown agent is 404 before any body error
        throw new ValidationError(laravelErrors(parsed.error.issues));
      }
      return files.link(userId, agentId, parsed.data.file_ids);
    },
    unlinkAgentFile: ({ userId, params }) => files.unlink(userId, params.agentId, params.fileId),
  });
  return r;
}
