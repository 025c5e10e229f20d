import type { ExportTables, Row } from './store.js';

/**
 * What an archive's rows name outside the archive binds nothing on the importing machine
 * (CONTRACT.md "Secrets, side effects, files on disk"). Ids are the source machine's, so the
 * same number here names something else, often something of the importer's own:
 *
 * - an agent's MCP servers are never in an archive: an imported agent has no `tool_servers`;
 * - a webhook of an agent, or a link or passage of a file, that the archive does not hold is
 *   left out;
 * - memories all go into one new collection (import.ts), whatever collection they name.
 *
 * Each drop is told in one sentence of the import's answer. The tables are parsed rows
 * (rows.ts); the result is new arrays, the input is not changed.
 */
export function resolveReferences(t: ExportTables): { tables: ExportTables; notes: string[] } {
  const notes: string[] = [];
  const ids = (rows: Row[]) => new Set(rows.map((r) => Number(r.id)));
  const agentIds = ids(t.agents);
  const fileIds = ids(t.files);
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

  const agents = t.agents.map((a) => {
    const servers = typeof a.tool_servers === 'string' ? (JSON.parse(a.tool_servers) as unknown[]).length : 0;
    if (servers) {
      notes.push(
        `The agent "${String(a.title).slice(0, 80)}" was imported without its ${servers === 1 ? 'MCP server' : `${servers} MCP servers`} (they belong to the machine it came from); choose its tools again in the agent's settings.`,
      );
    }
    return { ...a, tool_servers: '[]' };
  });

  const keep = <T extends Row>(rows: T[], ok: (r: T) => boolean, what: [string, string], named: string): T[] => {
    const kept = rows.filter(ok);
    const dropped = rows.length - kept.length;
    if (dropped) notes.push(`${plural(dropped, what[0], what[1])} named ${named} that is not in the archive; ${dropped === 1 ? 'it was' : 'they were'} left out.`);
    return kept;
  };
  const webhooks = keep(t.webhooks, (w) => agentIds.has(Number(w.agent_id)), ['webhook', 'webhooks'], 'an agent');
  const file_passages = keep(t.file_passages, (p) => fileIds.has(Number(p.file_id)), ['passage', 'passages'], 'a file');
  const agent_files = keep(
    t.agent_files,
    (l) => agentIds.has(Number(l.agent_id)) && fileIds.has(Number(l.file_id)),
    ['link between an agent and a file', 'links between agents and files'],
    'one',
  );

  const secretless = webhooks.filter((w) => typeof w.secret !== 'string').length;
  if (secretless) {
    notes.push(
      `${plural(secretless, 'webhook', 'webhooks')} came without ${secretless === 1 ? 'its signing secret' : 'their signing secrets'} (exports leave secrets out); ${secretless === 1 ? 'it has a new one, so update its receiver' : 'each has a new one, so update their receivers'}.`,
    );
  }
  return { tables: { ...t, agents, webhooks, file_passages, agent_files }, notes };
}
