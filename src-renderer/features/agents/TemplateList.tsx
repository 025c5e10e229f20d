import { useState } from 'react';
import { api, ops } from '../../api';
import type { AGENT_TYPES } from '../../../src-main/platform/contract/agents';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { useT } from '../../i18n';
import type { CreateStart } from './AgentCreateForm';

/** The template catalog: "Use template" opens the new-agent form filled in from it; nothing is saved until Create. */
export function TemplateList({ q, type, onUse }: { q: string; type: (typeof AGENT_TYPES)[number] | ''; onUse(start: Required<CreateStart>): void }) {
  const t = useT();
  const [page, setPage] = useState(1);
  const list = useLoad(() => api.call(ops.listResources, { query: { q: q.trim() || undefined, type: type || undefined, page, per_page: 24 } }), [q, type, page]);

  return (
    <>
      <ErrorNote error={list.error} what={t('agents.templates.what')} />
      {list.data && !list.data.data.length ? <p className="muted">{t('agents.templates.none')}</p> : null}
      <div className="grid-cards" data-testid="template-cards">
        {list.data?.data.map((tpl) => (
          <article key={tpl.id} className="card">
            <h3>{tpl.title}</h3>
            <p>{tpl.description}</p>
            <button
              type="button"
              className="btn btn-small btn-primary"
              aria-label={t('agents.templates.useOf', { title: tpl.title })}
              onClick={() => onUse({ template: { id: tpl.id, title: tpl.title, description: tpl.description } })}
            >
              {t('agents.templates.use')}
            </button>
          </article>
        ))}
      </div>
      {list.data && list.data.meta.last_page > 1 ? (
        <nav className="pager" aria-label={t('agents.templates.pages')}>
          <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('agents.previous')}
          </button>
          <span className="muted small">{t('agents.page', { page: list.data.meta.current_page, last: list.data.meta.last_page })}</span>
          <button type="button" className="btn btn-small" disabled={page >= list.data.meta.last_page} onClick={() => setPage(page + 1)}>
            {t('agents.next')}
          </button>
        </nav>
      ) : null}
    </>
  );
}
