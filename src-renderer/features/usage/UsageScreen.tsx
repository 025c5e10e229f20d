import { useMemo } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { formatCredits } from '../../components/format';
import { Screen } from '../../components/Screen';
import { TableHead } from '../../components/TableHead';
import { useLoad } from '../../components/use-load';
import { useNav } from '../../stores/nav';
import { UsageBars } from './UsageBars';
import { RANGES, dayLabel, daysOf, formatCount, loadAll, rangeOf, summarise, type Figures, type Group } from './usage-data';
import './usage.css';

const COLUMNS = ['Runs', 'Input tokens', 'Output tokens', 'Credits'];

function FigureCells({ f }: { f: Figures }) {
  return (
    <>
      <td className="num">{formatCount(f.executions)}</td>
      <td className="num">{formatCount(f.tokens_in)}</td>
      <td className="num">{formatCount(f.tokens_out)}</td>
      <td className="num">{formatCredits(f.credits)}</td>
    </>
  );
}

function GroupTable({ id, title, first, groups }: { id: string; title: string; first: string; groups: Group[] }) {
  return (
    <section className="usage-table" aria-labelledby={`${id}-heading`}>
      <h2 className="section-title" id={`${id}-heading`}>
        {title}
      </h2>
      <div className="table-scroll">
        <table className="table" data-testid={`${id}-table`}>
          <TableHead columns={[first, ...COLUMNS]} />
          <tbody>
            {groups.map((g) => (
              <tr key={g.key}>
                <th scope="row" className="cell-wrap">
                  {g.label}
                </th>
                <FigureCells f={g} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default function UsageScreen() {
  const sub = useNav((s) => s.sub);
  const go = useNav((s) => s.go);
  const range = rangeOf(sub);
  const report = useLoad(() => loadAll((page) => api.workspaceUsage({ range: range.id, page, per_page: 100 })), [range.id]);
  // Files processed and the credits formula come from the app's own usage figures (same period).
  const credits = useLoad(() => api.usage(range.days), [range.days]);
  const f = credits.data?.formula;
  const dates = useMemo(() => daysOf(range.days), [range.days, report.data]);
  const sums = useMemo(() => (report.data ? summarise(report.data.rows, dates) : null), [report.data, dates]);
  const totals = report.data?.totals;
  const empty = !!totals && totals.executions === 0;

  return (
    <Screen id="usage" title="Usage">
      <p className="muted">
        What your agents used, day by day: runs, tokens and credits, counted from every run stored on this computer, whether it came from Chat, the API or a schedule. Credits are Agent
        Desk’s own measure of use, worked out from tokens; nothing is charged.
      </p>
      <div className="usage-toolbar">
        <div className="segmented" role="group" aria-label="Period">
          {RANGES.map((r) => (
            <button key={r.id} type="button" className="seg" aria-pressed={r.id === range.id} onClick={() => go('usage', r.id)}>
              {r.label}
            </button>
          ))}
        </div>
        {report.loading ? (
          <span className="muted small" role="status">
            Loading usage…
          </span>
        ) : null}
      </div>
      <ErrorNote error={report.error} what="Usage" />
      {totals && !empty ? (
        <dl className="usage-stats" data-testid="usage-stats">
          <div className="card">
            <dt>Credits</dt>
            <dd data-testid="usage-credits">{formatCredits(totals.credits)}</dd>
          </div>
          <div className="card">
            <dt>Runs</dt>
            <dd data-testid="usage-runs">{formatCount(totals.executions)}</dd>
          </div>
          <div className="card">
            <dt>Input tokens</dt>
            <dd>{formatCount(totals.tokens_in)}</dd>
          </div>
          <div className="card">
            <dt>Output tokens</dt>
            <dd>{formatCount(totals.tokens_out)}</dd>
          </div>
        </dl>
      ) : null}
      {empty ? (
        <div className="card usage-empty" data-testid="usage-empty">
          <p>
            <strong>No usage {range.phrase}.</strong>
          </p>
          <p className="muted">When an agent answers, in Chat, through the API or on a schedule, the tokens and credits it used show up here, per day, per agent and per model.</p>
        </div>
      ) : null}
      {sums && !empty ? (
        <>
          {report.data && !report.data.complete ? <p className="note note-warn">This period holds more rows than the screen reads at once; the charts and tables show the first 5,000.</p> : null}
          <div className="usage-charts">
            <UsageBars
              id="usage-credits"
              title="Credits per day"
              summary={`Credits per day ${range.phrase}: ${formatCredits(totals!.credits)} in all, most on ${dayLabel(peak(sums.days, (d) => d.credits))}. The numbers are in the table “Numbers per day”.`}
              days={dates}
              series={[{ name: 'Credits', className: 'series-1' }]}
              values={sums.days.map((d) => [d.credits])}
              format={formatCredits}
            />
            <UsageBars
              id="usage-tokens"
              title="Tokens per day"
              summary={`Tokens per day ${range.phrase}: ${formatCount(totals!.tokens_in)} input and ${formatCount(totals!.tokens_out)} output tokens in all. The numbers are in the table “Numbers per day”.`}
              days={dates}
              series={[
                { name: 'Input', className: 'series-1' },
                { name: 'Output', className: 'series-2' },
              ]}
              values={sums.days.map((d) => [d.tokens_in, d.tokens_out])}
              format={formatCount}
            />
          </div>
          <details className="usage-days">
            <summary>Numbers per day</summary>
            <div className="table-scroll">
              <table className="table" data-testid="usage-days-table">
                <TableHead columns={['Day', ...COLUMNS]} />
                <tbody>
                  {[...sums.days].reverse().map((d) => (
                    <tr key={d.date}>
                      <th scope="row">{dayLabel(d.date)}</th>
                      <FigureCells f={d} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
          <GroupTable id="usage-agents" title="By agent" first="Agent" groups={sums.agents} />
          <GroupTable id="usage-models" title="By model" first="Model" groups={sums.models} />
        </>
      ) : null}
      {credits.data && credits.data.files > 0 ? (
        <p data-testid="usage-files">
          Reading files {range.phrase}: {formatCount(credits.data.files)} processed. Credits with files included: {formatCredits(credits.data.total_credits)}.
        </p>
      ) : null}
      {f ? (
        <p className="muted small" data-testid="usage-formula">
          How credits are counted: an answer costs {f.executionBase} plus {f.per1kInputTokens} per 1,000 input tokens and {f.per1kOutputTokens} per 1,000 output tokens; reading a file
          costs {f.fileBase} plus {f.perMiB} per MiB.
        </p>
      ) : null}
    </Screen>
  );
}

function peak<T extends { date: string }>(days: T[], v: (d: T) => number): string {
  return days.reduce((best, d) => (v(d) > v(best) ? d : best), days[0]).date;
}
