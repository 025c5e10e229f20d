import { z } from 'zod';
import { operations } from './operation.js';
import { say } from './messages.js';

export const PROVIDER_KINDS = ['openai-compatible', 'anthropic', 'ollama', 'gguf'] as const;
export const ProviderKind = z.enum(PROVIDER_KINDS);
export type ProviderKind = z.infer<typeof ProviderKind>;

const providerId = z.string().min(1).max(64).regex(/^[a-z0-9][a-z0-9_-]*$/, 'The id may only hold lowercase letters, digits, dashes and underscores.');

/** A provider as shown: secrets never leave, only whether one is set. */
export const ProviderView = z
  .object({
    id: z.string(),
    kind: ProviderKind,
    label: z.string().nullable(),
    base_url: z.string().nullable(),
    models_dir: z.string().nullable(),
    has_api_key: z.boolean(),
    enabled: z.boolean(),
    context_window: z.number().int().nullable(),
    /** where it came from: saved settings, the environment, or auto-detection (Ollama) */
    source: z.enum(['settings', 'env', 'auto', 'registered']),
  })
  .meta({ id: 'Provider' });
export type ProviderView = z.infer<typeof ProviderView>;

/** `match`: an exact model name, a prefix ending in `*`, a suffix starting with `*`, or `*` (catch-all). */
export const RouteRule = z.object({ match: z.string().min(1).max(200), provider: providerId }).meta({ id: 'ProviderRoute' });
export type RouteRule = z.infer<typeof RouteRule>;

export const SearchView = z.object({
  searxng_url: z.string().nullable(),
  brave_has_api_key: z.boolean(),
  configured: z.boolean(),
});

export const ProvidersSettings = z
  .object({
    providers: z.array(ProviderView),
    routes: z.array(RouteRule),
    default_model: z.string().nullable(),
    search: SearchView,
    secrets_encrypted: z.boolean(),
  })
  .meta({ id: 'ProvidersSettings' });
export type ProvidersSettings = z.infer<typeof ProvidersSettings>;

const httpUrl = z.url({ protocol: /^https?$/ });

export const ProviderInput = z.object({
  id: providerId,
  kind: ProviderKind,
  label: z.string().max(100).nullable().optional(),
  base_url: httpUrl.nullable().optional(),
  /** absent: keep the stored key; null or '': remove it */
  api_key: z.string().max(2000).nullable().optional(),
  models_dir: z.string().max(4000).nullable().optional(),
  enabled: z.boolean().optional(),
  context_window: z.number().int().min(512).max(10_000_000).nullable().optional(),
});
export type ProviderInput = z.infer<typeof ProviderInput>;

/**
 * A `providers` entry of PUT. With `kind`: a saved provider (it overrides an environment's or
 * detected one of the same id). Without `kind`: `{id, enabled}` switching a provider that comes
 * from the environment or auto-detection on or off, which stays what it is otherwise.
 */
export const ProviderSave = ProviderInput.extend({ kind: ProviderKind.optional() });
export type ProviderSave = z.infer<typeof ProviderSave>;

export const ProvidersUpdate = z
  .object({
    /** the saved providers (replacing the saved list); environment and detected ones stay unless named */
    providers: z
      .array(ProviderSave)
      .max(50)
      .refine((l) => new Set(l.map((p) => p.id)).size === l.length, 'The providers must have distinct ids.')
      .optional(),
    routes: z.array(RouteRule).max(200).optional(),
    default_model: z.string().max(200).nullable().optional(),
    search: z
      .object({
        searxng_url: httpUrl.nullable().optional(),
        brave_api_key: z.string().max(2000).nullable().optional(),
      })
      .optional(),
  })
  .meta({ id: 'ProvidersUpdate' });
export type ProvidersUpdate = z.infer<typeof ProvidersUpdate>;

export const ProviderTestBody = z
  .object({
    /** test a saved provider by id, or an unsaved one given whole */
    id: providerId.optional(),
    provider: ProviderInput.optional(),
  })
  .refine((b) => b.id !== undefined || b.provider !== undefined, { message: say.required('id', 'when provider is not present'), path: ['id'] });

export const ProviderTestResult = z
  .object({ ok: z.boolean(), models: z.array(z.string()), error: z.string().nullable(), latency_ms: z.number() })
  .meta({ id: 'ProviderTestResult' });
export type ProviderTestResult = z.infer<typeof ProviderTestResult>;

/**
 * ext: try one web search backend with a real search before (or after) saving it. A field left out
 * uses the saved value; the saved Brave key only ever goes to Brave's own API.
 */
export const SearchTestBody = z
  .object({
    backend: z.enum(['searxng', 'brave']),
    searxng_url: httpUrl.optional(),
    brave_api_key: z.string().min(1).max(2000).optional(),
  })
  .meta({ id: 'SearchTestBody' });
export type SearchTestBody = z.infer<typeof SearchTestBody>;

export const SearchTestResult = z
  .object({
    ok: z.boolean(),
    /** how many results the test search found */
    results: z.number().int(),
    /** the first few result titles, to show that real results came back */
    titles: z.array(z.string()),
    /** why it failed, in a sentence for people */
    error: z.string().nullable(),
    latency_ms: z.number(),
  })
  .meta({ id: 'SearchTestResult' });
export type SearchTestResult = z.infer<typeof SearchTestResult>;

const tags = ['Settings'] as const;

/** ext: model providers, routing and the web search backend (modules/providers/routes.ts handles them). */
export const providerOperations = operations({
  getProviderSettings: { method: 'get', path: '/settings/providers', tags, summary: 'Model providers, routes and web search (ext)', response: ProvidersSettings },
  updateProviderSettings: {
    method: 'put',
    path: '/settings/providers',
    tags,
    summary: 'Replace providers and/or routes, default model, web search (ext); an omitted api_key keeps the stored one',
    body: ProvidersUpdate,
    response: ProvidersSettings,
  },
  testProvider: { method: 'post', path: '/settings/providers/test', tags, summary: 'Check that a provider answers and list its models (ext)', body: ProviderTestBody, response: ProviderTestResult },
  testSearch: {
    method: 'post',
    path: '/settings/providers/search/test',
    tags,
    summary: 'Run one test search on a web search backend, the saved one or one given before saving (ext)',
    body: SearchTestBody,
    response: SearchTestResult,
  },
});
