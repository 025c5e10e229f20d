import { useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { AGENT_TYPES } from '../../../src-main/platform/contract/agents';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { useAgents } from '../../stores/agents';
import { AgentEditor } from './AgentEditor';
import { RemoteAgentView } from './RemoteAgentView';
import { SourceBadge } from './SourceBadge';
import { listAgents, type SourceFilter } from './agent-source';
import { TemplateList } from './TemplateList';
import { TYPE_WORDS } from './agent-questions';
import { Screen } from '../../components/Screen';

export default function AgentsScreen() {
  const [tab, setTab] = useState<'agents' | 'templates'>('agents');
  const [q, setQ] = useState('');
  const [type, setType] = useState('');
  const [source, setSource] = useState<SourceFilter>('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Agent | null>(null);
  const upsert = useAgents((s) => s.upsert);
  const list = useLoad(() => listAgents({ q: q.trim() || undefined, type: type || undefined, source, page, perPage: 24 }), [q, type, source, page]);

  return (
    <Screen id="agents" title="Agents">
      <div className="tabs" role="tablist">
        <button type="button" role="tab" className="tab" aria-selected={tab === 'agents'} onClick={() => setTab('agents')}>
          My agents
        </button>
        <button type="button" role="tab" className="tab" aria-selected={tab === 'templates'} onClick={() => setTab('templates')}>
          Templates
        </button>
      </div>
      <div className="row" style={{ marginBottom: 12 }}>
        <label className="sr-only" htmlFor="agent-search">
          Search
        </label>
        <input
          id="agent-search"
          type="search"
          className="grow"
          placeholder={tab === 'agents' ? 'Search agents (press /)' : 'Search templates (press /)'}
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setPage(1);
          }}
        />
        <label className="field inline">
          <span>Type</span>
          <select
            value={type}
            onChange={(e) => {
              setType(e.target.value);
              setPage(1);
            }}
          >
            <option value="">Any</option>
            {AGENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_WORDS[t]}
              </option>
            ))}
          </select>
        </label>
        {tab === 'agents' ? (
          <label className="field inline">
            <span>Source</span>
            <select
              value={source}
              data-testid="source-filter"
              onChange={(e) => {
                setSource(e.target.value as SourceFilter);
                setPage(1);
              }}
            >
              <option value="">All</option>
              <option value="local">Local</option>
              <option value="remote">Remote</option>
            </select>
          </label>
        ) : null}
      </div>
      {tab === 'templates' ? (
        <TemplateList
          q={q}
          type={type}
          onCreated={(a) => {
            upsert(a);
            setTab('agents');
            setEditing(a);
            void list.reload();
          }}
        />
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
          <ErrorNote error={list.error} what="Agents" />
          {list.data && !list.data.data.length ? (
            <p className="muted">{source === 'remote' ? 'No remote agent matches. Connect a remote platform in Settings → Remote.' : 'No agent matches. Create one from a template.'}</p>
          ) : null}
          <div className="grid-cards" data-testid="agent-cards">
            {list.data?.data.map((a) => (
              <article key={a.id} className="card" data-source={a.source}>
                <h3>{a.title}</h3>
                <p className="muted small">
                  <span className="badge">{TYPE_WORDS[a.type]}</span> <SourceBadge agent={a} />
                </p>
                <p>{a.description ?? <span className="muted">No description.</span>}</p>
                <button type="button" className="btn btn-small" onClick={() => setEditing(a)}>
                  {a.source === 'remote' ? 'Open' : 'Edit'}
                </button>
              </article>
            ))}
          </div>
          {list.data && list.data.last_page > 1 ? (
            <nav className="pager" aria-label="Agent pages">
              <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span className="muted small">
                Page {list.data.current_page} of {list.data.last_page}
              </span>
              <button type="button" className="btn btn-small" disabled={page >= list.data.last_page} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          ) : null}
        </>
      )}
    </Screen>
  );
}
