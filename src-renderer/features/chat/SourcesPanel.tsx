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
  // Nothing given: one sentence, not two empty lists.
  if (!passages.length && !memories.length)
    return (
      <p className="muted small" data-testid="sources">
        No passages from your files and no memories were given to the model for this answer.
      </p>
    );
  return (
    <div className="sources" data-testid="sources">
      {passages.length ? (
        <>
          <h3>From your files ({passages.length})</h3>
          <ol>
            {passages.map((p, i) => (
              <li key={i}>
                <div className="muted small">{p.filename ?? 'A file without a name'}</div>
                <blockquote>{p.text}</blockquote>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {memories.length ? (
        <>
          <h3>Memories ({memories.length})</h3>
          <ol>
            {memories.map((m) => (
              <li key={m.id}>
                <blockquote>{m.memory}</blockquote>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </div>
  );
}
