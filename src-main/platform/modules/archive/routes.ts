import type { UsersService } from '../access/users.js';
import type { ArchiveService } from './archive.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { archiveOperations } from '../../contract/archive.js';
import { stamp } from './backup.js';
import { requestWorkspace } from '../access/workspace.js';
import { receiveFilePart, uploadRequest } from '../../transports/http/multipart.js';

/**
 * ext: a workspace as one archive. `GET /api/export` streams a tar of the workspace's agents,
 * files (with bytes), and the caller's collections, memories and webhooks; `POST /api/import`
 * takes that tar as a multipart `archive` and adds it all as new rows.
 */
export function exportRoutes({ users, archive }: { users: UsersService; archive: ArchiveService }) {
  const r = createRouter();
  serveOperations(r, archiveOperations, {
    exportWorkspace: ({ userId, query }, c) => {
      const workspaceId = requestWorkspace(users, c);
      const includeSecrets = query.include_secrets === '1' || query.include_secrets === 'true';
      return new Response(archive.exportStream({ userId, workspaceId }, { includeSecrets }), {
        status: 200,
        headers: {
          'content-type': 'application/x-tar',
          'content-disposition': `attachment; filename="agent-desk-export-${stamp()}.tar"`,
          'cache-control': 'no-store',
        },
      });
    },
    // Streamed to disk by busboy (never parsed into memory by a validator).
    importWorkspace: async ({ userId }, c) => {
      const workspaceId = requestWorkspace(users, c);
      const part = await receiveFilePart(uploadRequest(c), archive.uploadSpec());
      const { imported, notes } = await archive.importFile(part.tmpPath, { userId, workspaceId }, part.filename);
      return { message: 'Import completed', notes, imported };
    },
  });
  return r;
}
