import { useRef, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { AGENT_TYPES } from '../../../src-main/platform/contract/agents';
import { messageOf } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { useT } from '../../i18n';
import { AgentEditor } from './AgentEditor';
import { AgentCreateForm, type CreateStart } from './AgentCreateForm';
import { RemoteAgentView } from './RemoteAgentView';
import { SourceBadge } from './SourceBadge';
import { listAgents, type SourceFilter } from './agent-source';
import { TemplateList } from './TemplateList';
import { duplicateAgent } from './duplicate';
import { Screen } from '../../components/Screen';

export default function AgentsScreen() {
  const t = useT();
  const [tab, setTab] = useState<'agents' | 'templates'>('agents');
  const [q, setQ] = useState('');
  const [type, setType] = useState<(typeof AGENT_TYPES)[number] | ''>('');
  const [source, setSource] = useState<SourceFilter>('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Agent | null>(null);
  const [creating, setCreating] = useState<CreateStart | null>(null);
  const [copying, setCopying] = useState<number | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const upsert = useAgents((s) => s.upsert);
  const list = useLoad(() => listAgents({ q: q.trim() || undefined, type: type || undefined, source, page, perPage: 24 }), [q, type, source, page]);

  const closeCreate = () => {
    setCreating(null);
    requestAnimationFrame(() => newButton.current?.focus());
  };
  const duplicate = async (a: Agent) => {
    setCopying(a.id);
    try {
      const copy = await duplicateAgent(a, t('agents.copyTitle', { title: a.title }));
      upsert(copy);
      toast(t('agents.duplicated', { title: copy.title }));
      setEditing(copy);
      void list.reload();
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setCopying(null);
    }
  };

  const body = creating ? (
    <AgentCreateForm
      key={creating.template?.id ?? 'blank'}
      start={creating}
      onCancel={closeCreate}
      onCreated={(a) => {
        setCreating(null);
        setTab('agents');
        setEditing(a);
        void list.reload();
      }}
    />
  ) : tab === 'templates' ? (
    <TemplateList q={q} type={type} onUse={setCreating} />
  ) : editing?.source === 'remote' ? (
    <RemoteAgentView
      agent={editing}
      onClose={() => {
        setEditing(null);
        void list.reload();
      }}
      onImported={(copy) => {
        // The copy opens in the editor at once: importing is usually done to change it.
        setEditing(copy);
        void list.reload();
      }}
    />
  ) : editing ? (
    <AgentEditor
      key={editing.id}
      agent={editing}
      onClose={() => {
        setEditing(null);
        void list.reload();
      }}
    />
  ) : (
    <>
      <ErrorNote error={list.error} what={t('agents.title')} />
      {list.data && !list.data.data.length ? <p className="muted">{source === 'remote' ? t('agents.noRemote') : t('agents.noMatch')}</p> : null}
      <div className="grid-cards" data-testid="agent-cards">
        {list.data?.data.map((a) => (
          <article key={a.id} className="card" data-source={a.source}>
            <h3>{a.title}</h3>
            <p className="muted small">
              <span className="badge">{t(`agents.types.${a.type}`)}</span> <SourceBadge agent={a} />
            </p>
            <p>{a.description ?? <span className="muted">{t('agents.noDescription')}</span>}</p>
            <div className="row">
              <button type="button" className="btn btn-small" aria-label={t(a.source === 'remote' ? 'agents.openOf' : 'agents.editOf', { title: a.title })} onClick={() => setEditing(a)}>
                {a.source === 'remote' ? t('agents.open') : t('agents.edit')}
              </button>
              {a.source === 'remote' ? null : (
                <button type="button" className="btn btn-small" aria-label={t('agents.duplicateOf', { title: a.title })} disabled={copying !== null} onClick={() => void duplicate(a)}>
                  {copying === a.id ? t('agents.duplicating') : t('agents.duplicate')}
                </button>
              )}
            </div>
          </article>
        ))}
      </div>
      {list.data && list.data.last_page > 1 ? (
        <nav className="pager" aria-label={t('agents.pages')}>
          <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('agents.previous')}
          </button>
          <span className="muted small">{t('agents.page', { page: list.data.current_page, last: list.data.last_page })}</span>
          <button type="button" className="btn btn-small" disabled={page >= list.data.last_page} onClick={() => setPage(page + 1)}>
            {t('agents.next')}
          </button>
        </nav>
      ) : null}
    </>
  );

  return (
    <Screen id="agents" title={t('agents.title')}>
      <div className="row agents-top">
        <div className="tabs grow" role="tablist" aria-label={t('agents.sections')}>
          <button type="button" role="tab" className="tab" aria-selected={tab === 'agents'} onClick={() => (setTab('agents'), setCreating(null))}>
            {t('agents.tabs.agents')}
          </button>
          <button type="button" role="tab" className="tab" aria-selected={tab === 'templates'} onClick={() => (setTab('templates'), setCreating(null))}>
            {t('agents.tabs.templates')}
          </button>
        </div>
        <button
          ref={newButton}
          type="button"
          className="btn btn-primary"
          onClick={() => {
            setEditing(null);
            setTab('agents');
            setCreating({});
          }}
          data-testid="new-agent"
        >
          {t('agents.newAgent')}
        </button>
      </div>
      {creating ? null : (
        <div className="row" style={{ marginBottom: 12 }}>
          <label className="sr-only" htmlFor="agent-search">
            {t('agents.search')}
          </label>
          <input
            id="agent-search"
            type="search"
            className="grow"
            placeholder={tab === 'agents' ? t('agents.searchAgents') : t('agents.searchTemplates')}
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(1);
            }}
          />
          <label className="field inline">
            <span>{t('agents.type')}</span>
            <select
              value={type}
              onChange={(e) => {
                setType(e.target.value as (typeof AGENT_TYPES)[number] | '');
                setPage(1);
              }}
            >
              <option value="">{t('agents.any')}</option>
              {AGENT_TYPES.map((k) => (
                <option key={k} value={k}>
                  {t(`agents.types.${k}`)}
                </option>
              ))}
            </select>
          </label>
          {tab === 'agents' ? (
            <label className="field inline">
              <span>{t('agents.source')}</span>
              <select
                value={source}
                data-testid="source-filter"
                onChange={(e) => {
                  setSource(e.target.value as SourceFilter);
                  setPage(1);
                }}
              >
                <option value="">{t('agents.all')}</option>
                <option value="local">{t('agents.local')}</option>
                <option value="remote">{t('agents.remote')}</option>
              </select>
            </label>
          ) : null}
        </div>
      )}
      {body}
    </Screen>
  );
}
