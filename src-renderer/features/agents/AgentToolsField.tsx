import type { z } from 'zod';
import { useEffect, useId, useState } from 'react';
import type { Question } from '../../../src-main/platform/contract/agents';
import type { McpServer, McpTool, ToolServerRef } from '../../../src-main/platform/contract/tools';
import { api, ops } from '../../api';
import { generalSentence } from '../../api/field-errors';
import { useLoad } from '../../components/use-load';
import { ErrorNote } from '../../components/ErrorNote';
import { ScreenLink } from '../../components/ScreenLink';
import { startingChoice, toolLabel, webChoice, withDefault } from './agent-questions';
import { Trans, useT } from '../../i18n';
import { WebSearchMissing, useWebSearchReady } from '../settings/WebSearchMissing';

/** A change to an MCP server's approval the editor sends when the agent is saved. */
export interface ApprovalChange {
  approval: McpServer['approval'];
  always_tools: string[];
}

interface Props {
  /** the agent's `tools` question (the web tools), when it has one */
  web: Question | null;
  onWeb(q: Question): void;
  servers: ToolServerRef[];
  onServers(next: ToolServerRef[]): void;
  approvals: Record<number, ApprovalChange>;
  onApproval(serverId: number, change: ApprovalChange): void;
}

/**
 * The agent's tools in one place: the web tools (the `tools` question's choices, the one a new
 * conversation starts with) and the tools of each MCP server, one by one, with whether each asks
 * before it runs. The wire keeps its shapes: the question's `default`, the agent's `tool_servers`,
 * the server's `approval` and `always_tools`.
 */
export function AgentToolsField({ web, onWeb, servers, onServers, approvals, onApproval }: Props) {
  const t = useT();
  const list = useLoad(() => api.call(ops.listMcpServers, {}), []);
  const searchReady = useWebSearchReady(!!web);
  const uid = useId();
  const refOf = (id: number) => servers.find((r) => r.server_id === id);
  const put = (ref: ToolServerRef | null, id: number) => {
    const rest = servers.filter((r) => r.server_id !== id);
    onServers(ref ? (refOf(id) ? servers.map((r) => (r.server_id === id ? ref : r)) : [...rest, ref]) : rest);
  };
  const webValue = web ? startingChoice(web) : null;

  return (
    <fieldset className="agent-section agent-tools" data-testid="agent-tools">
      <legend>{t('agents.toolsField.legend')}</legend>
      <p className="muted small agent-section-help">{t('agents.toolsField.help')}</p>
      <ul className="tool-list" aria-label={t('agents.toolsField.list')}>
        {web ? (
          <li className="tool-group" data-testid="web-tools">
            <div className="tool-group-head">
              <strong id={`${uid}-web`}>{t('agents.toolsField.onWeb')}</strong>
              <span className="muted small">{t('agents.toolsField.startsWith')}</span>
            </div>
            <div role="radiogroup" aria-labelledby={`${uid}-web`} className="tool-items">
              {(web.options ?? []).map((value) => {
                const words = webChoice(value);
                return (
                  <label key={value} className="tool-item" data-testid="web-tool">
                    <input type="radio" name={`${uid}-web-choice`} checked={webValue === value} onChange={() => onWeb(withDefault(web, value))} aria-describedby={`${uid}-web-${value}`} />
                    <span className="tool-item-text">
                      <span className="tool-name">{words.label}</span>
                      <span id={`${uid}-web-${value}`} className="muted small tool-detail">
                        {words.detail}
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
            {searchReady === false ? <WebSearchMissing compact /> : null}
          </li>
        ) : null}
        {list.data?.data.map((s) => (
          <ServerTools key={s.id} server={s} value={refOf(s.id) ?? null} onChange={(ref) => put(ref, s.id)} approval={approvals[s.id] ?? null} onApproval={(c) => onApproval(s.id, c)} />
        ))}
      </ul>
      <ErrorNote error={list.error} what={t('agents.toolsField.servers')} />
      {list.data && !list.data.data.length ? (
        <p className="muted small">
          <Trans
            i18nKey="agents.toolsField.noServers"
            components={{
              to: (
                <ScreenLink screen="settings" sub="tools" />
              ),
            }}
          />
        </p>
      ) : null}
    </fieldset>
  );
}

/** Whether a tool asks before each call, with the server's approval as changed in this editor. */
const asks = (a: ApprovalChange, tool: string) => a.approval === 'ask' && !a.always_tools.includes(tool);

/** One MCP server: use it or not, and each of its tools with its approval. */
function ServerTools({
  server: s,
  value,
  onChange,
  approval,
  onApproval,
}: {
  server: McpServer;
  value: ToolServerRef | null;
  onChange(ref: ToolServerRef | null): void;
  approval: ApprovalChange | null;
  onApproval(c: ApprovalChange): void;
}) {
  const uid = useId();
  const t = useT();
  const [tools, setTools] = useState<z.infer<typeof McpTool>[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [looking, setLooking] = useState(false);
  const current: ApprovalChange = approval ?? { approval: s.approval, always_tools: s.always_tools };

  useEffect(() => {
    let live = true;
    api.call(ops.listMcpServerTools, { params: { id: s.id } }).then(
      (r) => live && setTools(r.data),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [s.id]);

  const lookUp = async () => {
    setLooking(true);
    try {
      setTools((await api.call(ops.refreshMcpServerTools, { params: { id: s.id } })).data);
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setLooking(false);
    }
  };

  const names = tools?.map((t) => t.name) ?? [];
  const on = (name: string) => !!value && (value.tools === null || value.tools.includes(name));
  const toggle = (name: string, checked: boolean) => {
    if (checked) {
      const cur = value ? (value.tools ?? names) : [];
      const next = cur.includes(name) ? cur : [...cur, name];
      onChange({ server_id: s.id, tools: names.every((n) => next.includes(n)) ? null : next });
    } else if (value) {
      const next = (value.tools ?? names).filter((n) => n !== name);
      onChange(next.length ? { server_id: s.id, tools: next } : null);
    }
  };
  const setAsks = (name: string, ask: boolean) => {
    // A tool set to ask on a server that runs everything unasked: the server asks from now on,
    // its other known tools keep running unasked.
    if (current.approval === 'auto') {
      if (ask) onApproval({ approval: 'ask', always_tools: [...new Set([...current.always_tools, ...names.filter((n) => n !== name)])] });
      return;
    }
    const always = ask ? current.always_tools.filter((n) => n !== name) : [...new Set([...current.always_tools, name])];
    onApproval({ approval: 'ask', always_tools: always });
  };
  const partial = !!value && value.tools !== null;

  return (
    <li className="tool-group" data-testid="mcp-tools-group" data-name={s.name}>
      <div className="tool-group-head">
        <label className="row">
          <input
            type="checkbox"
            checked={!!value}
            ref={(el) => {
              if (el) el.indeterminate = partial;
            }}
            aria-label={t('agents.toolsField.useAll', { name: s.name })}
            aria-describedby={`${uid}-state`}
            onChange={(e) => onChange(e.target.checked ? { server_id: s.id, tools: null } : null)}
          />
          <strong>{s.name}</strong>
        </label>
        <span id={`${uid}-state`} className="muted small">
          {serverState(s, value, names.length, t)}
        </span>
      </div>
      {tools && tools.length ? (
        <div className="tool-items">
          {tools.map((tool) => {
            const id = `${uid}-${tool.name}`;
            return (
              <div key={tool.name} className="tool-item" data-testid="mcp-tool" data-tool={tool.name}>
                <input id={id} type="checkbox" checked={on(tool.name)} onChange={(e) => toggle(tool.name, e.target.checked)} aria-describedby={tool.description ? `${id}-about` : undefined} />
                <span className="tool-item-text">
                  <label htmlFor={id} className="tool-name" title={tool.name}>
                    {toolLabel(tool.name)}
                  </label>
                  {tool.description ? (
                    <span id={`${id}-about`} className="muted small tool-detail">
                      {firstSentence(tool.description)}
                    </span>
                  ) : null}
                </span>
                <select
                  className="tool-approval"
                  aria-label={t('agents.toolsField.whenRuns', { tool: toolLabel(tool.name) })}
                  value={asks(current, tool.name) ? 'ask' : 'auto'}
                  onChange={(e) => setAsks(tool.name, e.target.value === 'ask')}
                  data-testid="tool-approval"
                >
                  <option value="ask">{t('agents.toolsField.asks')}</option>
                  <option value="auto">{t('agents.toolsField.runs')}</option>
                </select>
              </div>
            );
          })}
        </div>
      ) : null}
      {tools && !tools.length && !error ? (
        <p className="muted small tool-note">
          {t('agents.toolsField.unknown')}{' '}
          <button type="button" className="btn btn-small" disabled={looking} onClick={() => void lookUp()}>
            {looking ? t('agents.toolsField.looking') : t('agents.toolsField.lookUp')}
          </button>
        </p>
      ) : null}
      {error ? (
        <p className="muted small tool-note">
          {generalSentence(error)}{' '}
          <button type="button" className="btn btn-small" disabled={looking} onClick={() => void lookUp()}>
            {looking ? t('agents.toolsField.trying') : t('agents.toolsField.tryAgain')}
          </button>
        </p>
      ) : null}
      {approval ? <p className="muted small tool-note">{t('agents.toolsField.shared', { name: s.name })}</p> : null}
    </li>
  );
}

function serverState(s: McpServer, ref: ToolServerRef | null, known: number, t: ReturnType<typeof useT>): string {
  const off = s.enabled ? '' : t('agents.toolsField.off');
  if (!ref) return t('agents.toolsField.notUsed', { off });
  if (ref.tools === null) return known ? t('agents.toolsField.allKnown', { count: known, off }) : t('agents.toolsField.allTools', { off });
  return t('agents.toolsField.some', { count: ref.tools.length, total: known || ref.tools.length, off });
}

/** A tool's description cut to its first sentence (servers write paragraphs). */
function firstSentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  const m = /^(.{20,200}?[.!?])(\s|$)/.exec(t);
  if (m) return m[1];
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}
