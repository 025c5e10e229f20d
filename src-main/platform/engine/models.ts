/** Context windows (tokens) of well-known model families; unknown models get a conservative default. */
const KNOWN: [RegExp, number][] = [
  [/^gpt-4\.1/, 1_000_000],
  [/^gpt-5/, 400_000],
  [/^(gpt-4o|o1|o3|o4|gpt-4-turbo)/, 128_000],
  [/^claude-/, 200_000],
  [/^gemini-/, 1_000_000],
  [/^(llama-3\.[1-3]|llama-4|mistral-large|mistral-small|codestral|deepseek|grok|qwen)/, 128_000],
];

export const DEFAULT_CONTEXT_WINDOW = 8192;

export function contextWindowOf(model: string): number {
  for (const [re, n] of KNOWN) if (re.test(model)) return n;
  return DEFAULT_CONTEXT_WINDOW;
}

/** Which env variable configures the provider a model name would go to (for "how to add one" messages). */
export function setupHint(model: string): string {
  if (/^claude-/.test(model)) return 'set AGENT_DESK_ANTHROPIC_API_KEY';
  if (/^(gpt-|o\d|chatgpt-|dall-e|gpt-image)/.test(model)) return 'set AGENT_DESK_OPENAI_API_KEY (and AGENT_DESK_OPENAI_BASE_URL for another OpenAI-compatible server)';
  if (/\.gguf$/i.test(model)) return 'put the GGUF file in the folder named by AGENT_DESK_MODELS_DIR';
  return 'set AGENT_DESK_OPENAI_BASE_URL to an OpenAI-compatible server that serves it, or AGENT_DESK_OLLAMA_URL';
}
