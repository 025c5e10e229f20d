/** Where each kind of model server answers unless configured otherwise (the API and the Settings screen agree on these). */
export const PROVIDER_URLS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  /** Ollama's own root; its OpenAI-compatible API is under /v1. */
  ollama: 'http://127.0.0.1:11434',
  /** LM Studio's server root; its OpenAI-compatible API is under /v1. */
  lmstudio: 'http://127.0.0.1:1234',
} as const;
