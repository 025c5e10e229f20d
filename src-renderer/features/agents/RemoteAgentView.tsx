import { useEffect, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { remoteApi } from '../settings/remote-api';
import { useRemote } from '../settings/remote-store';
import { RemoteLink } from '../settings/RemoteLink';
import { SourceBadge } from './SourceBadge';
import { PROTOCOL_QUESTIONS, QUESTION_KINDS, TYPE_WORDS } from './agent-questions';
import { humanize } from '../chat/option-words';

/**
 * A remote agent, read-only: its platform owns the instructions and questions. What can be
 * decided here is whether local context goes along, and making a local copy to change.
 */
export function RemoteAgentView({ agent, onClose, onImported }: { agent: Agent; onClose(): void; onImported(a: Agent): void }) {
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
      const saved = await api.agents.update(agent.id, { share_context: next });
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
      const copy = await remoteApi.importAgent(agent.id);
      upsert(copy);
      toast(`Imported "${copy.title}" as a local agent.`);
      onImported(copy);
    } catch (err) {
      setError(err);
      setBusy(null);
    }
  };

  return (
    <section className="card stack" aria-label={`Remote agent ${agent.title}`} data-testid="remote-agent">
      <div className="row">
        <h2 style={{ margin: 0 }} className="grow">
          {agent.title}
        </h2>
        <span className="badge">{TYPE_WORDS[agent.type]} agent</span>
        <SourceBadge agent={agent} />
      </div>
      <p className="note note-muted" data-testid="remote-readonly">
        This agent belongs to the remote platform{settings?.base_url ? ` (${settings.base_url})` : ''}: its instructions and questions are edited there, and each
        refresh brings its latest version. To change them here, import it as a local agent.
      </p>
      {settings?.status === 'offline' ? (
        <p className="note note-error">
          The remote platform is offline: this agent cannot run until it is back. <RemoteLink />
        </p>
      ) : null}
      {agent.description ? <p>{agent.description}</p> : null}
      <div>
        <div className="muted small">Instructions (system prompt)</div>
        <pre className="readonly-text">{agent.instructions || 'None.'}</pre>
      </div>
      <div>
        <div className="muted small">Questions</div>
        {asked.length ? (
          <ul className="small">
            {asked.map((q) => (
              <li key={q.name}>
                <strong>{humanize(q.name)}</strong> ({QUESTION_KINDS.find((k) => k.value === q.type)?.label.toLowerCase() ?? q.type}
                {q.required ? ', must be answered' : ''}){q.description ? `: ${q.description}` : ''}
              </li>
            ))}
          </ul>
        ) : (
          <p className="small">None.</p>
        )}
      </div>
      <label className="field inline">
        <input type="checkbox" checked={share} disabled={busy !== null} onChange={(e) => void toggleShare(e.target.checked)} />
        <span>Share my memories and files with this agent</span>
      </label>
      <p className="muted small" style={{ marginTop: -8 }}>
        When on, the memories and file passages most relevant to each message are sent to the remote platform with it; when off, it sees only the conversation.
      </p>
      <ErrorNote error={error} />
      <div className="row">
        <span className="grow" />
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
        <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => void importLocal()}>
          {busy === 'import' ? 'Importing…' : 'Import as local agent'}
        </button>
      </div>
    </section>
  );
}
