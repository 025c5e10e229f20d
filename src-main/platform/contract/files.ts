import { z } from 'zod';
import { ErrorBody, looseBool, pageQuery } from './common.js';
import { operations } from './operation.js';
import { say } from './messages.js';

export const FILE_STATUSES = ['waiting', 'in_progress', 'completed', 'failed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

/**
 * The spec's file object; `error` (ext) is present only on a `failed` file and says why. A file is
 * `completed` once its text is extracted and its passages have vectors from the selected embedder
 * (CONTRACT.md "Lean start"); ext `vectors: "failed"` marks a completed file whose embedding failed
 * (it is still found by full text), ext `vectors: "pending"` an `in_progress` file whose text is read
 * and whose passages wait for their vectors (a message can use it already: full text finds them).
 */
export const FileObject = z
  .object({
    id: z.number().int(),
    object: z.literal('file'),
    bytes: z.number().int(),
    created_at: z.string().meta({ example: '2026-11-21T08:52:01+00:00' }),
    filename: z.string(),
    credits: z.number(),
    status: z.enum(FILE_STATUSES),
    error: z.string().optional(),
    vectors: z.enum(['pending', 'failed']).optional(),
  })
  .meta({ id: 'File' });
export type FileObject = z.infer<typeof FileObject>;

/** ext: GET /api/files/{fileId} adds what processing found. */
export const FileDetail = FileObject.extend({
  metadata: z.record(z.string(), z.unknown()).nullable(),
  passages: z.number().int(),
}).meta({ id: 'FileDetail' });
export type FileDetail = z.infer<typeof FileDetail>;

/** An empty query value (`?status=`, what an HTML form sends for "any") means "not given", as in Laravel. */
const blankAsAbsent = (v: unknown) => (v === '' ? undefined : v);

/**
 * The spec's `page`, `per_page` (1..100), `order`, and two **ext** filters that keep the answer's
 * shape (`{data}` only): `status` and `q`.
 */
export const FileListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend({
  order: z.enum(['asc', 'desc']).optional().default('desc'),
  status: z
    .preprocess(blankAsAbsent, z.enum(FILE_STATUSES).optional())
    .meta({ description: 'ext: only files with this processing status.' }),
  q: z
    .preprocess(blankAsAbsent, z.string().max(255).optional())
    .meta({ description: 'ext: only files whose filename contains this text (case-insensitive).' }),
});
export type FileListQuery = z.infer<typeof FileListQuery>;
export const FileList = z.object({ data: z.array(FileObject) });

export const FileDeleted = z.object({ id: z.string(), object: z.literal('file'), deleted: z.literal(true) });

/** The multipart upload, for the OpenAPI document (the body itself is streamed, not parsed by zod). */
export const FileUpload = z
  .object({
    file: z.string().meta({ format: 'binary', description: 'The file; its extension must be in the spec table (case-insensitive).' }),
    process: z.boolean().optional().meta({ description: 'Process before answering (consumes credits).' }),
  })
  .meta({ id: 'FileUpload' });

/** The non-file fields of an upload, as multipart delivers them (strings). */
export const UploadFields = z.object({ process: looseBool().optional().default(false) });

const fileId = z.preprocess((v) => (typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v) : v), z.number().int().min(1));
export const AgentFilesLink = z.object({ file_ids: z.array(fileId).min(1).max(1000) }).meta({ id: 'AgentFilesLink' });
export type AgentFilesLink = z.infer<typeof AgentFilesLink>;

export const FilesCount = z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int(), in_progress: z.number().int() });
export const AgentFileSet = z
  .object({ id: z.number().int(), files: z.array(FileObject), status: z.enum(['completed', 'in_progress', 'failed']) })
  .meta({ id: 'AgentFileSet' });
export type AgentFileSet = z.infer<typeof AgentFileSet>;
export const AgentFileSetLinked = AgentFileSet.extend({ files_count: FilesCount }).meta({ id: 'AgentFileSetLinked' });
export type AgentFileSetLinked = z.infer<typeof AgentFileSetLinked>;
export const AgentFileRemoved = z.object({ id: z.number().int(), file: FileObject, removed: z.boolean() });

/** ext GET /api/files/{fileId}/text: the text read from the file, at most `max_chars` of it (the Files preview). */
export const FileTextQuery = z.object({
  max_chars: z.coerce.number({ error: say.must('max chars', 'be an integer') }).int().min(1).max(1_000_000).optional().default(200_000),
});
export const FileText = z
  .object({
    id: z.number().int(),
    filename: z.string(),
    status: z.enum(FILE_STATUSES),
    /** the extracted text (its beginning when `truncated`); empty until the file is processed */
    text: z.string(),
    truncated: z.boolean(),
    /** how many passages the text is indexed as (what retrieval and citations use) */
    passages: z.number().int(),
  })
  .meta({ id: 'FileText' });
export type FileText = z.infer<typeof FileText>;

const FilePath = z.object({ fileId: z.string() });
const AgentPath = z.object({ agentId: z.string() });
const AgentFilePath = z.object({ agentId: z.string(), fileId: z.string() });
const workspaceHeader = z.object({ 'x-workspace-id': z.string().optional() });
const upload = { contentType: 'multipart/form-data', schema: FileUpload } as const;
const tooLarge = { 413: ['The upload is over the size limit', ErrorBody] } as const;
const tags = ['Files'] as const;
const atags = ['Agent files'] as const;

/** The files and agent-file operations (modules/files/routes.ts handles them). */
export const fileOperations = operations({
  // Streamed by busboy, never parsed into memory by a validator: the handler reads it.
  uploadFile: { method: 'post', path: '/files', tags, summary: 'Upload a file (multipart, streamed to disk)', headers: workspaceHeader, upload, response: FileObject, errors: tooLarge },
  listFiles: {
    method: 'get',
    path: '/files',
    tags,
    summary: 'List files of the workspace',
    query: FileListQuery,
    headers: workspaceHeader,
    response: FileList,
    mcp: {
      tool: 'list_files',
      title: 'List files',
      description: 'Lists the files of a workspace (newest first): id, filename, bytes, status (`completed` files have text to read with read_file).',
      args: { workspace_id: 'x-workspace-id' },
    },
  },
  getFile: { method: 'get', path: '/files/{fileId}', tags, summary: 'Get one file with what processing found (ext)', params: FilePath, response: FileDetail, notFound: 'File' },
  getFileText: {
    method: 'get',
    path: '/files/{fileId}/text',
    tags,
    summary: 'The text read from a file, joined from its passages without their overlaps (ext)',
    params: FilePath,
    query: FileTextQuery,
    response: FileText,
    notFound: 'File',
  },
  processFile: { method: 'post', path: '/files/{fileId}/process', tags, summary: 'Process a file (extract, index); waits up to 100 s', params: FilePath, response: FileObject, notFound: 'File' },
  deleteFile: { method: 'delete', path: '/files/{fileId}', tags, summary: 'Delete a file, its passages and its links', params: FilePath, response: FileDeleted, notFound: 'File' },
  listAgentFiles: { method: 'get', path: '/agents/{agentId}/files', tags: atags, summary: 'Files linked to an agent', params: AgentPath, response: AgentFileSet, notFound: 'Agent' },
  // JSON `file_ids`, or the multipart variant of the spec's examples: a `file` that is uploaded and linked.
  linkAgentFiles: {
    method: 'post',
    path: '/agents/{agentId}/files',
    tags: atags,
    summary: 'Link files to an agent (linking a waiting file starts its processing); `{"file_id": n}` links one',
    params: AgentPath,
    body: AgentFilesLink,
    upload,
    response: AgentFileSetLinked,
    notFound: 'Agent',
    errors: tooLarge,
  },
  unlinkAgentFile: { method: 'delete', path: '/agents/{agentId}/files/{fileId}', tags: atags, summary: 'Unlink a file from an agent', params: AgentFilePath, response: AgentFileRemoved, notFound: 'Agent or file' },
});
