import { z } from 'zod';
import type { UsersService } from '../access/users.js';
import type { ArchiveService } from './archive.js';
import { createRouter, errorResponses, ok } from '../../transports/http/router.js';
import { ErrorBody } from '../../contract/common.js';
import { stamp } from './backup.js';
import { requestWorkspace } from '../access/workspace.js';
import { receiveFilePart, uploadRequest } from '../../transports/http/multipart.js';
import { ValidationError } from '../../kernel/errors.js';

const workspaceHeader = z.object({ 'x-workspace-id': z.string().optional() });
/** Webhook signing secrets leave only when asked for (CONTRACT.md "Secrets, side effects, files on disk"). */
const ExportQuery = z.object({ include_secrets: z.enum(['0', '1', 'true', 'false']).optional() });
const ImportUpload = z.object({ archive: z.string().meta({ format: 'binary' }) }).meta({ id: 'ImportUpload' });
const ImportResult = z
  .object({
    message: z.string(),
    /** One sentence per reference left out or changed (an agent's MCP servers, a webhook's secret, ...). */
    notes: z.array(z.string()),
    imported: z.object({
      agents: z.number().int(),
      memory_collections: z.number().int(),
      memories: z.number().int(),
      webhooks: z.number().int(),
      files: z.number().int(),
      file_passages: z.number().int(),
      agent_files: z.number().int(),
    }),
  })
  .meta({ id: 'ImportResult' });

/**
 * ext: a workspace as one archive. `GET /api/export` streams a tar of the workspace's agents,
 * files (with bytes), and the caller's collections, memories and webhooks; `POST /api/import`
 * takes that tar as a multipart `archive` and adds it all as new rows.
 */
export function exportRoutes({ users, archive }: { users: UsersService; archive: ArchiveService }) {
  const r = createRouter();
  const tags = ['Export'];

  r.openAPIRegistry.registerPath({
    method: 'get',
    path: '/export',
    tags,
    summary: 'Export the workspace as a tar archive (ext)',
    request: { headers: workspaceHeader, query: ExportQuery },
    responses: { 200: { content: { 'application/x-tar': { schema: z.string().meta({ format: 'binary' }) } }, description: 'The archive' }, ...errorResponses },
  });
  r.get('/export', (c) => {
    const userId = c.get('principal').userId;
    const workspaceId = requestWorkspace(users, c);
    const query = ExportQuery.safeParse({ include_secrets: c.req.query('include_secrets') });
    if (!query.success) throw ValidationError.field('include_secrets', 'The include secrets field must be 1 or 0.');
    const includeSecrets = query.data.include_secrets === '1' || query.data.include_secrets === 'true';
    return new Response(archive.exportStream({ userId, workspaceId }, { includeSecrets }), {
      status: 200,
      headers: {
        'content-type': 'application/x-tar',
        'content-disposition': `attachment; filename="agent-desk-export-${stamp()}.tar"`,
        'cache-control': 'no-store',
      },
    });
  });

  // Streamed to disk by busboy (never parsed into memory by a validator): plain Hono, described to OpenAPI.
  r.openAPIRegistry.registerPath({
    method: 'post',
    path: '/import',
    tags,
    summary: 'Import an export archive into this workspace (ext); all or nothing',
    request: { headers: workspaceHeader, body: { content: { 'multipart/form-data': { schema: ImportUpload } }, required: true } },
    responses: { ...ok(ImportResult), 413: { content: { 'application/json': { schema: ErrorBody } }, description: 'The archive is over the upload limit' }, ...errorResponses },
  });
  r.post('/import', async (c) => {
    const userId = c.get('principal').userId;
    const workspaceId = requestWorkspace(users, c);
    const part = await receiveFilePart(uploadRequest(c), archive.uploadSpec());
    const { imported, notes } = await archive.importFile(part.tmpPath, { userId, workspaceId });
    return c.json({ message: 'Import completed', notes, imported }, 200);
  });

  return r;
}
