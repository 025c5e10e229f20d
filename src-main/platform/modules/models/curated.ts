import type { CuratedModel } from '../../contract/models.js';

const hf = (repo: string, file: string) => `https://huggingface.co/${repo}/resolve/main/${file}`;

/**
 * Small GGUF chat models that run on an ordinary laptop's CPU (Q4_K_M quantisations), offered on
 * first run. Sizes are the published files' (approximate to a few MB: the download checks the
 * exact size the hub sends, and the SHA-256 that Hugging Face reports in `x-linked-etag`).
 */
export const CURATED_MODELS: CuratedModel[] = [
  {
    name: 'Qwen2.5 0.5B Instruct',
    file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    url: hf('Qwen/Qwen2.5-0.5B-Instruct-GGUF', 'qwen2.5-0.5b-instruct-q4_k_m.gguf'),
    size_bytes: 491_400_032,
    license: 'Apache-2.0',
    good_for: 'The smallest useful chat model: quick answers and rewording on any machine.',
  },
  {
    name: 'Llama 3.2 1B Instruct',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    url: hf('bartowski/Llama-3.2-1B-Instruct-GGUF', 'Llama-3.2-1B-Instruct-Q4_K_M.gguf'),
    size_bytes: 807_694_464,
    license: 'Llama 3.2 Community License',
    good_for: 'Everyday chat and summaries in English and seven other languages.',
  },
  {
    name: 'SmolLM2 1.7B Instruct',
    file: 'smollm2-1.7b-instruct-q4_k_m.gguf',
    url: hf('HuggingFaceTB/SmolLM2-1.7B-Instruct-GGUF', 'smollm2-1.7b-instruct-q4_k_m.gguf'),
    size_bytes: 1_055_609_824,
    license: 'Apache-2.0',
    good_for: 'Short answers, rewriting and simple reasoning, fully open.',
  },
  {
    name: 'Qwen2.5 1.5B Instruct',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    url: hf('Qwen/Qwen2.5-1.5B-Instruct-GGUF', 'qwen2.5-1.5b-instruct-q4_k_m.gguf'),
    size_bytes: 1_117_320_736,
    license: 'Apache-2.0',
    good_for: 'Coding help, structured output (JSON) and many languages.',
  },
  {
    name: 'Gemma 2 2B Instruct',
    file: 'gemma-2-2b-it-Q4_K_M.gguf',
    url: hf('bartowski/gemma-2-2b-it-GGUF', 'gemma-2-2b-it-Q4_K_M.gguf'),
    size_bytes: 1_708_582_752,
    license: 'Gemma Terms of Use',
    good_for: 'Well-written prose and explanations for its size.',
  },
  {
    name: 'Llama 3.2 3B Instruct',
    file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    url: hf('bartowski/Llama-3.2-3B-Instruct-GGUF', 'Llama-3.2-3B-Instruct-Q4_K_M.gguf'),
    size_bytes: 2_019_377_696,
    license: 'Llama 3.2 Community License',
    good_for: 'The best all-rounder here: chat, summaries, following instructions.',
  },
  {
    name: 'Phi-3.5 mini Instruct',
    file: 'Phi-3.5-mini-instruct-Q4_K_M.gguf',
    url: hf('bartowski/Phi-3.5-mini-instruct-GGUF', 'Phi-3.5-mini-instruct-Q4_K_M.gguf'),
    size_bytes: 2_393_232_608,
    license: 'MIT',
    good_for: 'Reasoning, maths and code; a long (128k) context.',
  },
  {
    // Multilingual search (100+ languages, Portuguese among them): BAAI's bge-m3, MIT, 1024-wide
    // vectors, 8k-token inputs; the XLM-RoBERTa architecture llama.cpp has long run. Size and
    // SHA-256 as Hugging Face lists the file (Git LFS details of rbehzadan/bge-m3-gguf).
    name: 'BGE-M3',
    file: 'bge-m3-Q4_K_M.gguf',
    url: hf('rbehzadan/bge-m3-gguf', 'bge-m3-Q4_K_M.gguf'),
    size_bytes: 438_000_000,
    license: 'MIT',
    good_for: 'Search that understands Portuguese and 100+ other languages in your files and memories.',
    kind: 'embedding',
    sha256: 'd17e6c277fd7011454f053bf85588df617a4d450d682262fd10c638b2d665acc',
  },
  {
    // The reranker trained with bge-m3 (same languages), Apache-2.0. No SHA-256 is pinned: none
    // was found published for this file; the download checks the one the hub sends.
    name: 'BGE Reranker v2 M3',
    file: 'bge-reranker-v2-m3-q8_0.gguf',
    url: hf('klnstpr/bge-reranker-v2-m3-Q8_0-GGUF', 'bge-reranker-v2-m3-q8_0.gguf'),
    size_bytes: 636_000_000,
    license: 'Apache-2.0',
    good_for: 'Optional: reorders the best search results more precisely, in many languages.',
    kind: 'reranker',
    sha256: null,
  },
];

/** The SHA-256 the catalog pins for a file URL (a download of it is checked against it); null when none. */
export function pinnedSha256(url: string): string | null {
  return CURATED_MODELS.find((m) => m.url === url)?.sha256 ?? null;
}

/** Files of the catalog that are not chat models (search models): a models folder lists them, but no chat offers them. */
export const NOT_FOR_CHAT: ReadonlySet<string> = new Set(CURATED_MODELS.filter((m) => m.kind && m.kind !== 'chat').map((m) => m.file.toLowerCase()));
