import { useEffect, useMemo } from 'react';
import { useSetup } from '../stores/setup';
import { useT } from '../i18n';

export interface ModelSelectProps {
  id: string;
  value: string;
  onChange(model: string): void;
  /** the agent's own default model (its `model` question's `default`), preferred when served */
  preferred?: string | null;
  /**
   * A first choice with the value '' ("Default model (…)"): for settings that may leave the model
   * to the app's default. Without it, a value no provider serves is replaced by the default model.
   */
  noneLabel?: string;
  ariaDescribedBy?: string;
  testId?: string;
}

/**
 * Every model picker of the app (chat, agent editor, schedules): what the configured providers
 * serve now (GET /api/models), grouped by provider, the default model marked. Nothing else is
 * offered, so nothing picked here leads to "not configured".
 */
export function ModelSelect({ id, value, onChange, preferred, noneLabel, ariaDescribedBy, testId = 'model-picker' }: ModelSelectProps) {
  const { models, sources, defaultModel, status, version, check } = useSetup();
  const t = useT();
  useEffect(() => {
    if (status === 'checking' && version === 0) void check();
  }, [status, version, check]);

  const groups = useMemo(() => {
    const label = new Map(sources.map((s) => [s.provider, s.label]));
    const out = new Map<string, { label: string; items: { id: string; label: string }[] }>();
    for (const m of models) {
      const g = out.get(m.provider) ?? { label: label.get(m.provider) ?? m.provider, items: [] };
      if (!g.items.some((x) => x.id === m.id)) g.items.push({ id: m.id, label: m.label });
      out.set(m.provider, g);
    }
    return [...out.entries()];
  }, [models, sources]);

  const served = models.some((m) => m.id === value);
  const fallback = chooseDefault(models.map((m) => m.id), preferred ?? null, defaultModel?.model ?? null);
  useEffect(() => {
    // A value no provider serves (a new form, a provider removed): the default model instead.
    if (noneLabel !== undefined || !fallback || served) return;
    if (fallback !== value) onChange(fallback);
  }, [fallback, served, value, onChange, noneLabel]);

  if (!models.length) {
    return (
      <select id={id} value="" disabled aria-describedby={ariaDescribedBy} data-testid={testId}>
        <option value="">{status === 'checking' ? t('components.models.loading') : t('components.models.none')}</option>
      </select>
    );
  }
  const defaultId = defaultModel?.model ?? null;
  const auto = noneLabel === undefined;
  const selected = served || (!auto && value) ? value : '';
  return (
    <select id={id} value={selected} onChange={(e) => onChange(e.target.value)} aria-describedby={ariaDescribedBy} data-testid={testId}>
      {auto ? !served ? <option value="">{t('components.models.choose')}</option> : null : <option value="">{noneLabel}</option>}
      {!auto && value && !served ? <option value={value}>{t('components.models.notServed', { model: value })}</option> : null}
      {groups.map(([provider, g]) => (
        <optgroup key={provider} label={g.label}>
          {g.items.map((m) => (
            <option key={m.id} value={m.id}>
              {defaultId === m.id ? t('components.models.isDefault', { model: m.label }) : m.label}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

/** The model a picker starts on: the agent's own default, else the app's default, else the first served. */
export function chooseDefault(served: string[], preferred: string | null, appDefault: string | null): string | null {
  if (preferred && served.includes(preferred)) return preferred;
  if (appDefault && served.includes(appDefault)) return appDefault;
  return served[0] ?? null;
}

/** The app's default model as the pickers mark it, for a sentence ("Default model: …"). */
export function useDefaultModel(): string | null {
  return useSetup((s) => s.defaultModel?.model ?? null);
}
