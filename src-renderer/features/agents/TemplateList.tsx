import { useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';

export function TemplateList({ q, type, onCreated }: { q: string; type: string; onCreated(a: Agent): void }) {
  const [page, setPage] = useState(1);
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState<string | null>(null);
  const list = useLoad(() => api.resources.list({ q: q.trim() || undefined, type: type || undefined, page, per_page: 24 }), [q, type, page]);

  const create = async (templateId: string) => {
    setCreating(templateId);
    try {
      const agent = await api.agents.create({ template_id: templateId });
      toast(`Created "${agent.title}".`);
      onCreated(agent);
    } catch (err) {
      setError(err);
    } finally {
      setCreating(null);
    }
  };

  return (
    <>
      <ErrorNote error={list.error} what="Templates" />
      <ErrorNote error={error} />
      {list.data && !list.data.data.length ? <p className="muted">No template matches.</p> : null}
      <div className="grid-cards" data-testid="template-cards">
        {list.data?.data.map((t) => (
          <article key={t.id} className="card">
            <h3>{t.title}</h3>
            <p>{t.description}</p>
            <button type="button" className="btn btn-small btn-primary" disabled={creating !== null} onClick={() => void create(t.id)}>
              {creating === t.id ? 'Creating…' : 'Create agent'}
            </button>
          </article>
        ))}
      </div>
      {list.data && list.data.meta.last_page > 1 ? (
        <nav className="pager" aria-label="Template pages">
          <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span className="muted small">
            Page {list.data.meta.current_page} of {list.data.meta.last_page}
          </span>
          <button type="button" className="btn btn-small" disabled={page >= list.data.meta.last_page} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      ) : null}
    </>
  );
}
