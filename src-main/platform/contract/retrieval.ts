import { z } from 'zod';
import { httpUrl } from './common.js';
import { operations } from './operation.js';
import { say } from './messages.js';

export const EMBEDDING_PROVIDERS = ['builtin', 'openai', 'ollama', 'gguf'] as const;

/** ext (CONTRACT.md "Retrieval"): which embedder turns passages and memories into vectors. */
export const EmbeddingSettings = z
  .object({
    provider: z.enum(EMBEDDING_PROVIDERS),
    /** The model: `use-lite-512` for builtin, the server's model name, or a GGUF file in the models folder. */
    model: z.string(),
    /** ext: the OpenAI-compatible server (openai, ollama); null for builtin and gguf. */
    base_url: z.string().nullable(),
    /** ext: whether a key is stored (it is write-only). */
    has_api_key: z.boolean(),
    /**
     * `ready`: every passage and memory has its vector; `embedding`: (re-)embedding in the
     * background (search uses bm25 alone until done); `error`: the embedder failed (see `error`;
     * retried later, bm25 keeps answering).
     */
    status: z.enum(['ready', 'embedding', 'error']),
    /** 0..1: share of passages and memories embedded by the chosen embedder. */
    progress: z.number(),
    /** ext: counts behind `progress`. */
    embedded: z.number().int(),
    total: z.number().int(),
    /** ext: whether vectors take part in search right now (false while re-embedding). */
    vectors_in_use: z.boolean(),
    error: z.string().nullable(),
    /** ext: the GGUF reranker (a file in the models folder) that reorders the best hybrid candidates; null: off (the default). */
    reranker: z.string().nullable(),
  })
  .meta({ id: 'EmbeddingSettings' });
export type EmbeddingSettings = z.infer<typeof EmbeddingSettings>;

const baseUrl = httpUrl(say.must('base url', 'be a valid http or https URL without credentials'), { credentials: false });

export const EmbeddingSettingsUpdate = z
  .object({
    provider: z.enum(EMBEDDING_PROVIDERS, { error: say.must('provider', 'be one of: builtin, openai, ollama, gguf') }),
    model: z.string().trim().min(1).max(300).optional(),
    base_url: baseUrl.nullable().optional(),
    /** Write-only; an empty string removes the stored key. */
    api_key: z.string().max(4096).optional(),
    /** ext: a GGUF reranker file in the models folder, or null to turn reranking off; absent keeps the current one. */
    reranker: z.string().trim().min(1).max(300).nullable().optional(),
  })
  .meta({ id: 'EmbeddingSettingsUpdate' });
export type EmbeddingSettingsUpdate = z.infer<typeof EmbeddingSettingsUpdate>;

export const PassageScores = z.object({
  /** FTS5 bm25, negated so that higher is better; null when the passage was not a keyword match. */
  bm25: z.number().nullable(),
  /** Cosine similarity to the query; null when vectors were not used or did not rank it. */
  vector: z.number().nullable(),
  /** The two scores normalized within their candidates and weighted (bm25 0.7, vector 0.3), 0..1; null for a file given whole. */
  fused: z.number().nullable(),
});
export type PassageScores = z.infer<typeof PassageScores>;

/** ext GET /api/files/{fileId}/passages: a file's extracted text, passage by passage (the file viewer). */
export const FilePassagesQuery = z.object({
  offset: z.coerce.number({ error: say.must('offset', 'be an integer') }).int().min(0).max(10_000_000).optional().default(0),
  limit: z.coerce.number({ error: say.must('limit', 'be an integer') }).int().min(1).max(500).optional().default(100),
});
export const FilePassagesPage = z
  .object({
    total: z.number().int(),
    offset: z.number().int(),
    passages: z.array(z.object({ ordinal: z.number().int(), text: z.string() })),
  })
  .meta({ id: 'FilePassagesPage' });

const FilePath = z.object({ fileId: z.string() });
const tags = ['Retrieval'] as const;

/** ext: the embedder behind hybrid retrieval (Settings → Retrieval), and a file's passages for the file viewer (modules/retrieval/routes.ts). */
export const retrievalOperations = operations({
  getEmbeddingSettings: { method: 'get', path: '/settings/embeddings', tags, summary: 'The embedder and its background progress (ext)', response: EmbeddingSettings },
  updateEmbeddingSettings: {
    method: 'put',
    path: '/settings/embeddings',
    tags,
    summary: 'Choose the embedder (ext); a different one re-embeds in the background while search keeps working (bm25 alone until done)',
    body: EmbeddingSettingsUpdate,
    response: EmbeddingSettings,
  },
  listFilePassages: {
    method: 'get',
    path: '/files/{fileId}/passages',
    tags,
    summary: "A file's extracted text, passage by passage in order (ext); the ordinal is a citation's `position`",
    params: FilePath,
    query: FilePassagesQuery,
    response: FilePassagesPage,
    notFound: 'File',
    mcp: {
      tool: 'read_file',
      title: "Read a file's text",
      description:
        'Reads the text Agent Desk extracted from a processed file, passage by passage (passages overlap a little at their edges). Up to 500 passages per call; continue with offset.',
      args: { file_id: 'fileId' },
    },
  },
});
