import type { ProviderInput, ProviderView } from '../../../src-main/platform/contract/settings';
import { PROVIDER_URLS } from '../../../src-main/platform/contract/provider-urls';
import { t } from '../../i18n';

/** Each kind's example address; its name is settings.providerKinds.<kind> (kindLabel). */
export const PROVIDER_KIND_INFO = {
  'openai-compatible': { url: `${PROVIDER_URLS.lmstudio}/v1` },
  anthropic: { url: PROVIDER_URLS.anthropic },
  ollama: { url: PROVIDER_URLS.ollama },
  gguf: { url: '' },
} as const;

export const kindLabel = (kind: keyof typeof PROVIDER_KIND_INFO): string => t(`settings.providerKinds.${kind}`);

export function providerLabel(p: ProviderView): string {
  return p.label || p.id;
}

/** A saved provider back to its input shape; `api_key` left out, so the stored key is kept. */
export function toInput(p: ProviderView): ProviderInput {
  return { id: p.id, kind: p.kind, label: p.label, base_url: p.base_url, models_dir: p.models_dir, enabled: p.enabled, context_window: p.context_window };
}

/**
 * The saved list to write back (PUT replaces the saved providers only; the environment's and
 * detected ones stay on the platform without being sent).
 */
export function savedInputs(list: ProviderView[]): ProviderInput[] {
  return list.filter((p) => p.source === 'settings').map(toInput);
}

export function slugId(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 64) || 'provider'
  );
}

/**
 * The provider form's field for a platform error key: `providers.2.base_url`, `provider.api_key`
 * (Test) and `base_url` (setup) name it; a refusal of the whole list names it in its message.
 */
export function providerFormField(key: string, message: string): string | null {
  const m = /^(?:providers\.\d+\.|provider\.)?(kind|label|base_url|api_key|models_dir)$/.exec(key);
  if (m) return m[1];
  if (key === 'providers' || key === 'provider') return /models_dir/.test(message) ? 'models_dir' : /api_key/.test(message) ? 'api_key' : null;
  return null;
}
