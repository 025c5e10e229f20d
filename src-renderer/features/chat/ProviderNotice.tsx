import { useState } from 'react';
import type { ModelSource } from '../../../src-main/platform/contract/models';
import { providerSentence } from '../../api/field-errors';
import { ScreenLink } from '../../components/ScreenLink';
import { useSetup } from '../../stores/setup';
import { t as tr, useT } from '../../i18n';

/** What is wrong with the providers, in one sentence each, or null when a model can run. */
export function providerProblems(status: string, sources: ModelSource[]): string[] {
  const failing = sources.filter((s) => !s.ok).map((s) => tr('chat.provider.failing', { label: s.label, sentence: providerSentence(s.error ?? '') }));
  if (failing.length) return failing;
  if (status !== 'needed') return [];
  if (!sources.length) return [tr('chat.provider.noneSetUp')];
  return sources.map((s) => tr('chat.provider.noModel', { label: s.label }));
}

/**
 * A provider problem as a notice above the composer (which provider, what failed, Retry, a link to
 * Settings), never in place of the conversation: the history stays readable whatever a provider does.
 */
export function ProviderNotice({ problems }: { problems: string[] }) {
  const t = useT();
  const check = useSetup((s) => s.check);
  const [retrying, setRetrying] = useState(false);
  if (!problems.length) return null;
  return (
    <div className="note note-warn provider-notice" role="status" data-testid="provider-notice">
      <div className="provider-notice-text">
        {problems.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </div>
      <div className="provider-notice-actions">
        <button
          type="button"
          className="btn btn-small"
          disabled={retrying}
          onClick={() => {
            setRetrying(true);
            void check({ fresh: true }).finally(() => setRetrying(false));
          }}
        >
          {retrying ? t('chat.provider.checking') : t('chat.provider.retry')}
        </button>
        <ScreenLink className="btn btn-small" screen="settings" sub="providers">
          {t('chat.provider.settings')}
        </ScreenLink>
      </div>
    </div>
  );
}
