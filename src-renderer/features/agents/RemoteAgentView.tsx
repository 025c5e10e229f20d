import { useEffect, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { useRemote } from '../../stores/remote';
import { RemoteLink } from '../settings/RemoteLink';
import { SourceBadge } from './SourceBadge';
import { PROTOCOL_QUESTIONS, kindWords, typeWords } from './agent-questions';
import { useT } from '../../i18n';
import { humanize } from '../chat/option-words';

/**
 * A remote agent, read-only: its platform owns the instructions and questions. What can be
 * decided here is whether local context goes along, and making a local copy to change.
 */
export function RemoteAgentView({ agent, onClose, onImported }: { agent: Agent; onClose(): void; onImported(a: Agent): void }) {
  const t = useT();
  const [share, setShare] = useState(agent.share_context);
  const [busy, setBusy] = useState<'share' | 'import' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const upsert = useAgents((s) => s.upsert);
  const { settings, load } = useRemote();
  // The chat's own questions (history, session) are the app's business, not the person's.
  const asked = agent.questions.filter((q) => !PROTOCOL_QUESTIONS.has(q.name));

  useEffect(() => {
    if (!settings) void load();
  }, [settings, load]);

  const toggleShare = async (next: boolean) => {
    // Shown at once, put back if the platform refuses.
    setShare(next);
    setBusy('share');
    try {
      const saved = await api.call(ops.updateAgent, { params: { id: agent.id }, body: { share_context: next } });
      setShare(saved.share_context);
      upsert(saved);
      setError(null);
    } catch (err) {
      setShare(!next);
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  const importLocal = async () => {
    setBusy('import');
    try {
      const copy = await api.call(ops.importRemoteAgent, { params: { id: agent.id } });
      upsert(copy);
      toast(t('agents.remoteView.imported', { title: copy.title }));
      onImported(copy);
    } catch (err) {
      setError(err);
      setBusy(null);
    }
  };

  return (
    <section className="card stack" aria-label={t('agents.remoteView.label', { title: agent.title })} data-testid="remote-agent">
      <div className="row">
        <h2 style={{ margin: 0 }} className="grow">
          {agent.title}
        </h2>
        <span className="badge">{t('agents.typeAgent', { type: typeWords(agent.type) })}</span>
        <SourceBadge agent={agent} />
      </div>
      <p className="note note-muted" data-testid="remote-readonly">
        {settings?.base_url ? t('agents.remoteView.readonlyAt', { url: settings.base_url }) : t('agents.remoteView.readonly')}
      </p>
      {settings?.status === 'offline' ? (
        <p className="note note-error">
          {t('agents.remoteView.offline')} <RemoteLink />
        </p>
      ) : null}
      {agent.description ? <p>{agent.description}</p> : null}
      <div>
        <div className="muted small">{t('agents.remoteView.instructions')}</div>
        <pre className="readonly-text">{agent.instructions || t('agents.remoteView.none')}</pre>
      </div>
      <div>
        <div className="muted small">{t('agents.remoteView.questions')}</div>
        {asked.length ? (
          <ul className="small">
            {asked.map((q) => (
              <li key={q.name}>
                <strong>{humanize(q.name)}</strong> ({kindWords(q.type).toLowerCase()}
                {q.required ? t('agents.remoteView.required') : ''}){q.description ? `: ${q.description}` : ''}
              </li>
            ))}
          </ul>
        ) : (
          <p className="small">{t('agents.remoteView.none')}</p>
        )}
      </div>
      <label className="field inline">
        <input type="checkbox" checked={share} disabled={busy !== null} onChange={(e) => void toggleShare(e.target.checked)} />
        <span>{t('agents.remoteView.share')}</span>
      </label>
      <p className="muted small" style={{ marginTop: -8 }}>
        {t('agents.remoteView.shareHelp')}
      </p>
      <ErrorNote error={error} />
      <div className="row">
        <span className="grow" />
        <button type="button" className="btn" onClick={onClose}>
          {t('agents.remoteView.close')}
        </button>
        <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => void importLocal()}>
          {busy === 'import' ? t('agents.remoteView.importing') : t('agents.remoteView.import')}
        </button>
      </div>
    </section>
  );
}
