import type { Embedder } from '../../ingest/embed/types.js';
import { BuiltinEmbedder } from '../../ingest/embed/builtin.js';
import { OpenAIEmbedder } from '../../ingest/embed/openai.js';
import { GgufEmbedder } from '../../ingest/embed/gguf.js';
import type { EMBEDDING_PROVIDERS } from '../../contract/retrieval.js';
import { PROVIDER_URLS } from '../../contract/provider-urls.js';

/** The stored choice (setting `retrieval.embedder`); the key is sealed by the secret box. */
export interface EmbedderChoice {
  provider: (typeof EMBEDDING_PROVIDERS)[number];
  model: string;
  base_url: string | null;
  api_key_sealed: string | null;
}

export const BUILTIN_MODEL = 'use-lite-512';
export const DEFAULT_CHOICE: EmbedderChoice = { provider: 'builtin', model: BUILTIN_MODEL, base_url: null, api_key_sealed: null };

/** Builds the embedder a choice names. */
export function embedderFor(choice: EmbedderChoice, opts: { ggufFolders: () => string[]; apiKey: string | null }): Embedder {
  switch (choice.provider) {
    case 'builtin':
      return new BuiltinEmbedder();
    case 'openai':
      return new OpenAIEmbedder({ baseUrl: choice.base_url ?? PROVIDER_URLS.openai, model: choice.model, apiKey: opts.apiKey });
    case 'ollama':
      return new OpenAIEmbedder({ baseUrl: choice.base_url ?? `${PROVIDER_URLS.ollama}/v1`, model: choice.model, apiKey: opts.apiKey });
    case 'gguf':
      return new GgufEmbedder(opts.ggufFolders, choice.model);
  }
}
