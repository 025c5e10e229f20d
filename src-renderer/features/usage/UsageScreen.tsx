import { useMemo } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { formatCredits, formatNumber } from '../../components/format';
import { useT } from '../../i18n';
import { Screen } from '../../components/Screen';
import { TableHead } from '../../components/TableHead';
import { useLoad } from '../../components/use-load';
import { useNav } from '../../stores/nav';
import { UsageBars } from './UsageBars';
import { RANGES, dayLabel, daysOf, formatCount, loadAll, rangeOf, summarise, type Figures, type Group } from './usage-data';
import './usage.css';


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
  const t = useT();
  return (
    <section className="usage-table" aria-labelledby={`${id}-heading`}>
      <h2 className="section-title" id={`${id}-heading`}>
        {title}
      </h2>
      <div className="table-scroll">
        <table className="table" data-testid={`${id}-table`}>
          <TableHead columns={[first, ...columns(t)]} />
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

/** The figures' columns, after the first (day, agent or model). */
const columns = (t: ReturnType<typeof useT>) => [t('usage.runs'), t('usage.tokensIn'), t('usage.tokensOut'), t('usage.credits')];

export default function UsageScreen() {
  const t = useT();
  const sub = useNav((s) => s.sub);
  const go = useNav((s) => s.go);
  const range = rangeOf(sub);
  const report = useLoad(() => loadAll((page) => api.call(ops.getWorkspaceUsage, { query: { range: range.id, page, per_page: 100 } })), [range.id]);
  // Files processed and the credits formula come from the app's own usage figures (same period).
  const credits = useLoad(() => api.call(ops.getUsage, { query: { days: range.days } }), [range.days]);
  const f = credits.data?.formula;
  const dates = useMemo(() => daysOf(range.days), [range.days, report.data]);
  const sums = useMemo(() => (report.data ? summarise(report.data.rows, dates) : null), [report.data, dates]);
  const totals = report.data?.totals;
  const empty = !!totals && totals.executions === 0;
  const phrase = t(`usage.ranges.${range.id}.phrase`);

  return (
    <Screen id="usage" title={t('app.screens.usage')}>
      <p className="muted">{t('usage.intro')}</p>
      <div className="usage-toolbar">
        <div className="segmented" role="group" aria-label={t('usage.period')}>
          {RANGES.map((r) => (
            <button key={r.id} type="button" className="seg" aria-pressed={r.id === range.id} onClick={() => go('usage', r.id)}>
              {t(`usage.ranges.${r.id}.label`)}
            </button>
          ))}
        </div>
        {report.loading ? (
          <span className="muted small" role="status">
            {t('usage.loading')}
          </span>
        ) : null}
      </div>
      <ErrorNote error={report.error} what={t('app.screens.usage')} />
      {totals && !empty ? (
        <dl className="usage-stats" data-testid="usage-stats">
          <div className="card">
            <dt>{t('usage.credits')}</dt>
            <dd data-testid="usage-credits">{formatCredits(totals.credits)}</dd>
          </div>
          <div className="card">
            <dt>{t('usage.runs')}</dt>
            <dd data-testid="usage-runs">{formatCount(totals.executions)}</dd>
          </div>
          <div className="card">
            <dt>{t('usage.tokensIn')}</dt>
            <dd>{formatCount(totals.tokens_in)}</dd>
          </div>
          <div className="card">
            <dt>{t('usage.tokensOut')}</dt>
            <dd>{formatCount(totals.tokens_out)}</dd>
          </div>
        </dl>
      ) : null}
      {empty ? (
        <div className="card usage-empty" data-testid="usage-empty">
          <p>
            <strong>{t('usage.none', { phrase })}</strong>
          </p>
          <p className="muted">{t('usage.noneHelp')}</p>
        </div>
      ) : null}
      {sums && !empty ? (
        <>
          {report.data && !report.data.complete ? <p className="note note-warn">{t('usage.incomplete', { count: formatNumber(5000) })}</p> : null}
          <div className="usage-charts">
            <UsageBars
              id="usage-credits"
              title={t('usage.creditsPerDay')}
              summary={t('usage.creditsSummary', { phrase, credits: formatCredits(totals!.credits), day: dayLabel(peak(sums.days, (d) => d.credits)) })}
              days={dates}
              series={[{ name: t('usage.credits'), className: 'series-1' }]}
              values={sums.days.map((d) => [d.credits])}
              format={formatCredits}
            />
            <UsageBars
              id="usage-tokens"
              title={t('usage.tokensPerDay')}
              summary={t('usage.tokensSummary', { phrase, input: formatCount(totals!.tokens_in), output: formatCount(totals!.tokens_out) })}
              days={dates}
              series={[
                { name: t('usage.input'), className: 'series-1' },
                { name: t('usage.output'), className: 'series-2' },
              ]}
              values={sums.days.map((d) => [d.tokens_in, d.tokens_out])}
              format={formatCount}
            />
          </div>
          <details className="usage-days">
            <summary>{t('usage.numbersPerDay')}</summary>
            <div className="table-scroll">
              <table className="table" data-testid="usage-days-table">
                <TableHead columns={[t('usage.day'), ...columns(t)]} />
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
          <GroupTable id="usage-agents" title={t('usage.byAgent')} first={t('usage.agent')} groups={sums.agents} />
          <GroupTable id="usage-models" title={t('usage.byModel')} first={t('usage.model')} groups={sums.models} />
        </>
      ) : null}
      {credits.data && credits.data.files > 0 ? (
        <p data-testid="usage-files">
          {t('usage.files', { phrase, count: credits.data.files, files: formatCount(credits.data.files), credits: formatCredits(credits.data.total_credits) })}
        </p>
      ) : null}
      {f ? (
        <p className="muted small" data-testid="usage-formula">
          {t('usage.formula', {
            base: formatNumber(f.executionBase),
            input: formatNumber(f.per1kInputTokens),
            output: formatNumber(f.per1kOutputTokens),
            thousand: formatNumber(1000),
            fileBase: formatNumber(f.fileBase),
            perMiB: formatNumber(f.perMiB),
          })}
        </p>
      ) : null}
    </Screen>
  );
}

function peak<T extends { date: string }>(days: T[], v: (d: T) => number): string {
  return days.reduce((best, d) => (v(d) > v(best) ? d : best), days[0]).date;
}
