import type { WorkspaceUsage, WorkspaceUsageRow } from '../../../src-main/platform/contract/usage';
import { currentLocale, t } from '../../i18n';
import { formatNumber } from '../../components/format';

/** The periods; each one's button and phrase ("in the last 7 days") are usage.ranges.<id>. */
export const RANGES = [
  { id: '1d', days: 1 },
  { id: '7d', days: 7 },
  { id: '30d', days: 30 },
] as const;
export type RangeId = (typeof RANGES)[number]['id'];

export const rangeOf = (id: string | undefined) => RANGES.find((r) => r.id === id) ?? RANGES[1];

export interface Figures {
  executions: number;
  tokens_in: number;
  tokens_out: number;
  credits: number;
}

export interface Day extends Figures {
  date: string;
}

export interface Group extends Figures {
  key: string;
  label: string;
}

const zero = (): Figures => ({ executions: 0, tokens_in: 0, tokens_out: 0, credits: 0 });
const add = (to: Figures, r: Figures) => {
  to.executions += r.executions;
  to.tokens_in += r.tokens_in;
  to.tokens_out += r.tokens_out;
  to.credits = Math.round((to.credits + r.credits) * 1e6) / 1e6;
};

/** The UTC days of a range ending today, oldest first (the platform counts usage per UTC day). */
export function daysOf(days: number, now = Date.now()): string[] {
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** Every row of a range: the report is paged (100 rows a page); a bound keeps a huge history from looping long. */
export async function loadAll(page: (n: number) => Promise<WorkspaceUsage>): Promise<{ rows: WorkspaceUsageRow[]; totals: Figures; complete: boolean }> {
  const rows: WorkspaceUsageRow[] = [];
  let totals = zero();
  for (let n = 1; n <= 50; n++) {
    const p = await page(n);
    rows.push(...p.data);
    totals = p.totals;
    if (!p.has_more) return { rows, totals, complete: true };
  }
  return { rows, totals, complete: false };
}

/** An agent's row: its title; the agents deleted since are one row, "Deleted agents" (their ids mean nothing to a person). */
export const agentLabel = (r: Pick<WorkspaceUsageRow, 'agent_id' | 'agent_title'>) => r.agent_title ?? t('usage.deletedAgents');
const agentKey = (r: Pick<WorkspaceUsageRow, 'agent_id' | 'agent_title'>) => (r.agent_title === null ? 'deleted' : String(r.agent_id));
export const modelLabel = (m: string | null) => m ?? t('usage.noModel');

/** Per day (every day of the range, zeros included), per agent and per model, most credits first. */
export function summarise(rows: WorkspaceUsageRow[], dates: string[]): { days: Day[]; agents: Group[]; models: Group[] } {
  const days = new Map(dates.map((date) => [date, { date, ...zero() }]));
  const agents = new Map<string, Group>();
  const models = new Map<string, Group>();
  for (const r of rows) {
    const d = days.get(r.date);
    if (d) add(d, r);
    const a = agents.get(agentKey(r)) ?? { key: agentKey(r), label: agentLabel(r), ...zero() };
    add(a, r);
    agents.set(a.key, a);
    const mk = r.model ?? '';
    const m = models.get(mk) ?? { key: mk, label: modelLabel(r.model), ...zero() };
    add(m, r);
    models.set(mk, m);
  }
  const order = (a: Group, b: Group) => b.credits - a.credits || b.executions - a.executions || a.label.localeCompare(b.label, currentLocale());
  return { days: [...days.values()], agents: [...agents.values()].sort(order), models: [...models.values()].sort(order) };
}

export const formatCount = (n: number) => formatNumber(n);

/** Short numbers for axis labels: 0.0125, 950, 1.25K, 3.4M ("1,25 mil" in Portuguese). */
export function compact(n: number): string {
  return formatNumber(n, { notation: 'compact', maximumSignificantDigits: 3 });
}

/** `2026-03-10` → `Mar 10` / `10 de mar.` (the day as the platform counts it, in UTC). */
export const dayLabel = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString(currentLocale(), { month: 'short', day: 'numeric', timeZone: 'UTC' });
