import { useState } from 'react';
import type { ModelSource } from '../../../src-main/platform/contract/models';
import { providerSentence } from '../../api/field-errors';
import { useNav } from '../../stores/nav';
import { useSetup } from '../setup/setup-store';

/** What is wrong with the providers, in one sentence each, or null when a model can run. */
export function providerProblems(status: string, sources: ModelSource[]): string[] {
  const failing = sources.filter((s) => !s.ok).map((s) => `${s.label}: ${providerSentence(s.error ?? 'No answer.')}`);
  if (failing.length) return failing;
  if (status !== 'needed') return [];
  if (!sources.length) return ['No model provider is set up yet.'];
  return sources.map((s) => `${s.label} answers, but serves no model right now. Load or pull a model there.`);
}

/**
 * A provider problem as a notice above the composer (which provider, what failed, Retry, a link to
 * Settings), never in place of the conversation: the history stays readable whatever a provider does.
 */
export function ProviderNotice({ problems }: { problems: string[] }) {
  const check = useSetup((s) => s.check);
  const go = useNav((s) => s.go);
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
          {retrying ? 'Checking…' : 'Retry'}
        </button>
        <a
          className="btn btn-small"
          href="#/settings/providers"
          onClick={(e) => {
            e.preventDefault();
            go('settings', 'providers');
          }}
        >
          Open Settings
        </a>
      </div>
    </div>
  );
}
