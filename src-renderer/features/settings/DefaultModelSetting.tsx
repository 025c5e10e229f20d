import { useId, useState } from 'react';
import { sentenceOf } from '../../api/field-errors';
import { ModelSelect } from '../../components/ModelSelect';
import { useSetup } from '../../stores/setup';
import { useT } from '../../i18n';

/**
 * The one place the default model is set: what new chats and schedules start on and what an agent
 * that names no model runs on. Unset, it is the first model the first provider lists (shown).
 */
export function DefaultModelSetting({ saved, onSave }: { saved: string | null; onSave(model: string | null): Promise<unknown> }) {
  const id = useId();
  const t = useT();
  const current = useSetup((s) => s.defaultModel);
  const models = useSetup((s) => s.models);
  const providerName = useSetup((s) => s.sources.find((x) => x.provider === s.defaultModel?.provider)?.label ?? s.defaultModel?.provider ?? '');
  const [failure, setFailure] = useState<string | null>(null);
  const automatic = current?.source === 'first_listed' && current.model ? current.model : (models[0]?.id ?? null);
  return (
    <section className="card stack default-model" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title" style={{ margin: 0 }}>
        {t('settings.defaultModel.title')}
      </h2>
      <div className="field">
        <label htmlFor={id} className="sr-only">
          {t('settings.defaultModel.title')}
        </label>
        <ModelSelect
          id={id}
          value={saved ?? ''}
          testId="default-model"
          noneLabel={automatic ? t('settings.defaultModel.automaticIs', { model: automatic }) : t('settings.defaultModel.automatic')}
          ariaDescribedBy={`${id}-effect`}
          onChange={async (m) => {
            const refused = await onSave(m || null);
            setFailure(refused ? sentenceOf(refused) : null);
          }}
        />
      </div>
      <p id={`${id}-effect`} className="small muted" data-testid="effective-default-model">
        {!current?.model
          ? t('settings.defaultModel.noModel')
          : current.source === 'first_listed'
            ? t('settings.defaultModel.effectAutomatic', { model: current.model, provider: providerName })
            : t('settings.defaultModel.effect', { model: current.model })}
      </p>
      {failure ? (
        <p className="field-error" role="alert">
          {failure}
        </p>
      ) : null}
    </section>
  );
}
