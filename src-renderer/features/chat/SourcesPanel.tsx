import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { useT } from '../../i18n';

/** The passages and memories the model was given for one response (ext `context`), fetched on demand. */
export function SourcesPanel({ responseId }: { responseId: number }) {
  const t = useT();
  const { data, error, loading } = useLoad(() => api.call(ops.getAgentResponse, { params: { id: responseId } }), [responseId]);
  if (loading && !data) return <p className="muted small">{t('chat.sources.loading')}</p>;
  if (error) return <ErrorNote error={error} what={t('chat.sources.what')} />;
  const ctx = data?.context;
  if (!ctx) return <p className="muted small" data-testid="sources">{t('chat.sources.notReported')}</p>;
  const { passages, memories } = ctx;
  // Nothing given: one sentence, not two empty lists.
  if (!passages.length && !memories.length)
    return (
      <p className="muted small" data-testid="sources">
        {t('chat.sources.nothing')}
      </p>
    );
  return (
    <div className="sources" data-testid="sources">
      {passages.length ? (
        <>
          <h3>{t('chat.sources.files', { count: passages.length })}</h3>
          <ol>
            {passages.map((p, i) => (
              <li key={i}>
                <div className="muted small">{p.filename ?? t('chat.sources.unnamed')}</div>
                <blockquote>{p.text}</blockquote>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {memories.length ? (
        <>
          <h3>{t('chat.sources.memories', { count: memories.length })}</h3>
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
