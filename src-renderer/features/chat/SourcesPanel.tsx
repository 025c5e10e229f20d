import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';

/** The passages and memories the model was given for one response (ext `context`), fetched on demand. */
export function SourcesPanel({ responseId }: { responseId: number }) {
  const { data, error, loading } = useLoad(() => api.executions.get(responseId), [responseId]);
  if (loading && !data) return <p className="muted small">Loading sources…</p>;
  if (error) return <ErrorNote error={error} what="Sources" />;
  const ctx = data?.context;
  if (!ctx) return <p className="muted small" data-testid="sources">This platform does not report what the model was given.</p>;
  const { passages, memories } = ctx;
  return (
    <div className="sources" data-testid="sources">
      <h3>Passages ({passages.length})</h3>
      {!passages.length ? <p className="muted small">No file passages were used.</p> : null}
      <ol>
        {passages.map((p, i) => (
          <li key={i}>
            <div className="muted small">
              {p.filename ?? `File ${p.file_id}`}
            </div>
            <blockquote>{p.text}</blockquote>
          </li>
        ))}
      </ol>
      <h3>Memories ({memories.length})</h3>
      {!memories.length ? <p className="muted small">No memories were used.</p> : null}
      <ol>
        {memories.map((m) => (
          <li key={m.id}>
            <blockquote>{m.memory}</blockquote>
          </li>
        ))}
      </ol>
    </div>
  );
}
