import { useEffect } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { ScreenLink } from '../../components/ScreenLink';
import { formatAt } from './describe';
import { TableHead } from '../../components/TableHead';
import { TONE_BADGE, runOutcome } from './run-outcome';
import { useT } from '../../i18n';

/** The schedule's past runs, newest first: each run's execution (open it in Chat) or why it could not start. */
export function RunList({ scheduleId, refreshKey }: { scheduleId: number; refreshKey: string }) {
  const runs = useLoad(() => api.call(ops.listScheduleRuns, { params: { id: scheduleId }, query: { per_page: 20 } }), [scheduleId, refreshKey]);
  const tr = useT();
  // A run still starting or running is looked at again shortly, so its status does not stay stale.
  const unsettled = !!runs.data?.data.some((r) => !runOutcome(r).settled);
  const { reload } = runs;
  useEffect(() => {
    if (!unsettled || runs.loading) return;
    const t = setTimeout(() => void reload(), 2000);
    return () => clearTimeout(t);
  }, [unsettled, runs.loading, runs.data, reload]);
  if (runs.error) return <ErrorNote error={runs.error} what={tr('schedules.runs.what')} />;
  if (!runs.data) return <p className="small muted" aria-busy="true">{tr('schedules.runs.loading')}</p>;
  if (!runs.data.data.length) return <p className="small muted">{tr('schedules.runs.none')}</p>;
  return (
    <div className="table-scroll">
      <table className="table schedule-runs" data-testid="schedule-runs">
        <caption className="sr-only">{tr('schedules.runs.caption')}</caption>
        <TableHead columns={[tr('schedules.runs.started'), tr('schedules.runs.status'), tr('schedules.runs.result')]} />
        <tbody>
          {runs.data.data.map((r) => {
            const ex = r.execution;
            const outcome = runOutcome(r);
            return (
              <tr key={r.id} data-testid="schedule-run">
                <td>{formatAt(outcome.at)}</td>
                <td>
                  <span className={TONE_BADGE[outcome.tone]} data-testid="run-status">
                    {outcome.word}
                  </span>
                </td>
                <td className="schedule-run-result">
                  {r.error ? (
                    <span className="run-error" data-testid="run-error">
                      {outcome.reason}
                    </span>
                  ) : ex ? (
                    <ScreenLink screen="chat" sub={String(ex.root_id)}>
                      {tr('schedules.runs.open')}
                    </ScreenLink>
                  ) : null}
                  {ex && outcome.reason ? <span className="run-error"> {outcome.reason}</span> : null}
                  {r.error || ex ? null : r.execution_id ? <span className="muted">{outcome.reason}</span> : <span className="muted">{tr('schedules.runs.queued')}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
