import { z } from 'zod';
import { looseBool, pageQuery } from './common.js';

export const FILE_STATUSES = ['waiting', 'in_progress', 'completed', 'failed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

/** The spec's file object; `error` (ext) is present only on a `failed` file and says why. */
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
