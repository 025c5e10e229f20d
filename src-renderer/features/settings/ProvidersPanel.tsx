import { useState } from 'react';
import type { ProvidersUpdate } from '../../../src-main/platform/contract/settings';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { ProviderForm } from './ProviderForm';
import { ProviderCard } from './ProviderCard';
import { DefaultModelSetting } from './DefaultModelSetting';
import { RoutingTable } from './RoutingTable';
import { useSetup } from '../../stores/setup';
import { savedInputs } from './providers';
import './providers.css';
import { t, useT } from '../../i18n';

export function ProvidersPanel() {
  const settings = useLoad(() => api.call(ops.getProviderSettings, {}), []);
  const tr = useT();
  const [editing, setEditing] = useState<string | null>(null);

  if (settings.error) return <ErrorNote error={settings.error} what={tr('settings.providers.what')} />;
  if (!settings.data) return <p className="muted">{tr('common.loading')}</p>;
  const data = settings.data;

  /** Saves; answers the platform's refusal (the caller words it where it belongs) or null. */
  const save = async (update: ProvidersUpdate, done: string): Promise<unknown> => {
    try {
      await api.call(ops.updateProviderSettings, { body: update });
      toast(done);
      await settings.reload();
      // Every model picker, the cards' models and the setup panel follow at once.
      void useSetup.getState().check({ fresh: true });
      return null;
    } catch (err) {
      return err;
    }
  };

  return (
    <div className="stack">
      <p className="muted">{tr('settings.providers.intro')}</p>
      {!data.secrets_encrypted ? <p className="note note-muted small">{tr('settings.providers.unencrypted')}</p> : null}
      <DefaultModelSetting saved={data.default_model} onSave={(model) => save({ default_model: model }, model ? t('settings.providers.defaultSaved', { model }) : t('settings.providers.defaultAutomatic'))} />
      {!data.providers.length ? <p className="note note-warn">{tr('settings.providers.none')}</p> : null}
      {data.providers.map((p) =>
        editing === p.id ? (
          <ProviderForm
            key={p.id}
            existing={data.providers.map((x) => x.id)}
            editing={p}
            onCancel={() => setEditing(null)}
            onSave={async (next) => {
              // Saved ones are replaced in place; an environment's or detected one gets a saved override.
              const list = savedInputs(data.providers);
              const providers = p.source === 'settings' ? list.map((x) => (x.id === p.id ? next : x)) : [...list, next];
              const refused = await save({ providers }, t('settings.providers.savedOne', { name: next.label || next.id }));
              if (!refused) setEditing(null);
              return refused;
            }}
          />
        ) : (
          <ProviderCard
            key={p.id}
            provider={p}
            onEdit={() => setEditing(p.id)}
            onToggle={() => save({ providers: p.source === 'settings' ? savedInputs(data.providers).map((x) => (x.id === p.id ? { ...x, enabled: !p.enabled } : x)) : [...savedInputs(data.providers), { id: p.id, enabled: !p.enabled }] }, p.enabled ? t('settings.providers.disabled') : t('settings.providers.enabled'))}
            onRemove={() => save({ providers: savedInputs(data.providers).filter((x) => x.id !== p.id) }, t('settings.providers.removed'))}
          />
        ),
      )}
      <ProviderForm key={data.providers.length} existing={data.providers.map((p) => p.id)} onSave={(p) => save({ providers: [...savedInputs(data.providers), p] }, t('settings.providers.added'))} />
      <details className="card advanced-routing" data-testid="advanced-routing">
        <summary>{tr('settings.routing.summary')}</summary>
        <RoutingTable settings={data} onSave={(routes) => save({ routes }, t('settings.routing.saved'))} />
      </details>
    </div>
  );
}
