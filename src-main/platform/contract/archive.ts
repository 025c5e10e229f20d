import { z } from 'zod';
import { ErrorBody } from './common.js';
import { WorkspaceHeader } from './keys.js';
import { operations } from './operation.js';
import { say } from './messages.js';

const INCLUDE_SECRETS = ['0', '1', 'true', 'false'] as const;

/**
 * Webhook signing secrets leave only when asked for (CONTRACT.md "Secrets, side effects, files on disk").
 * A refinement rather than an enum, so a wrong value reads "must be 1 or 0"; the document still lists the choices.
 */
export const ExportQuery = z.object({
  include_secrets: z
    .string()
    .refine((v) => (INCLUDE_SECRETS as readonly string[]).includes(v), say.must('include secrets', 'be 1 or 0'))
    .meta({ enum: [...INCLUDE_SECRETS] })
    .optional(),
});

export const ImportUpload = z.object({ archive: z.string().meta({ format: 'binary' }) }).meta({ id: 'ImportUpload' });

export const ImportResult = z
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

const tags = ['Export'] as const;

/**
 * ext: a workspace as one archive (modules/archive/routes.ts handles them). The export is a tar
 * stream; the import takes that tar as a multipart `archive`, streamed to disk by its handler.
 */
export const archiveOperations = operations({
  exportWorkspace: {
    method: 'get',
    path: '/export',
    tags,
    summary: 'Export the workspace as a tar archive (ext)',
    query: ExportQuery,
    headers: WorkspaceHeader,
    response: z.never(),
    bytes: 'application/x-tar',
    onlyBytes: true,
    okDescription: 'The archive',
  },
  importWorkspace: {
    method: 'post',
    path: '/import',
    tags,
    summary: 'Import an export archive into this workspace (ext); all or nothing',
    headers: WorkspaceHeader,
    upload: { contentType: 'multipart/form-data', schema: ImportUpload },
    response: ImportResult,
    errors: { 413: ['The archive is over the upload limit', ErrorBody] },
  },
});
