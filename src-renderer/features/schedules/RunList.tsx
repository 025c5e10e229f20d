import { useEffect } from 'react';
import { api } from '../../api';
import { fieldSentence, generalSentence } from '../../api/field-errors';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { useNav } from '../../stores/nav';
import { formatAt } from './describe';
import { TableHead } from '../../components/TableHead';

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);
const STATUS_BADGE: Record<string, string> = { succeeded: 'badge badge-ok', failed: 'badge badge-error', cancelled: 'badge badge-warn' };

/** The schedule's past runs, newest first: each run's execution (open it in Chat) or why it could not start. */
export function RunList({ scheduleId, refreshKey }: { scheduleId: number; refreshKey: number }) {
  const runs = useLoad(() => api.schedules.runs(scheduleId), [scheduleId, refreshKey]);
  const go = useNav((s) => s.go);
  // A run still starting or running is looked at again shortly, so its status does not stay stale.
  const unsettled = !!runs.data?.data.some((r) => !r.error && !(r.execution && FINAL.has(r.execution.status)) && !(r.execution_id && !r.execution));
  const { reload } = runs;
  useEffect(() => {
    if (!unsettled || runs.loading) return;
    const t = setTimeout(() => void reload(), 2000);
    return () => clearTimeout(t);
  }, [unsettled, runs.loading, runs.data, reload]);
  if (runs.error) return <ErrorNote error={runs.error} what="Runs" />;
  if (!runs.data) return <p className="small muted" aria-busy="true">Loading runs…</p>;
  if (!runs.data.data.length) return <p className="small muted">No runs yet. The first one starts at the next run time shown above.</p>;
  return (
    <div className="table-scroll">
      <table className="table schedule-runs" data-testid="schedule-runs">
        <caption className="sr-only">Past runs</caption>
        <TableHead columns={['Due', 'Status', 'Result']} />
        <tbody>
          {runs.data.data.map((r) => {
            const ex = r.execution;
            const status = r.error ? 'not started' : ex ? ex.status : r.execution_id ? 'removed' : 'starting';
            return (
              <tr key={r.id} data-testid="schedule-run">
                <td>{formatAt(r.due_at)}</td>
                <td>
                  <span className={r.error ? 'badge badge-error' : (STATUS_BADGE[status] ?? 'badge')} data-testid="run-status">
                    {status}
                  </span>
                </td>
                <td className="schedule-run-result">
                  {r.error ? (
                    <span className="run-error" data-testid="run-error">
                      {runErrorSentence(r.error)}
                    </span>
                  ) : ex ? (
                    <a
                      href={`#/chat/${ex.root_id}`}
                      onClick={(e) => {
                        e.preventDefault();
                        go('chat', String(ex.root_id));
                      }}
                    >
                      Open conversation #{ex.id} in Chat
                    </a>
                  ) : null}
                  {ex?.error && !r.error ? <span className="run-error"> {ex.error.message}</span> : null}
                  {r.error || ex ? null : r.execution_id ? (

                    <span className="muted">Execution #{r.execution_id} was deleted.</span>
                  ) : (
                    <span className="muted">Queued to start.</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Why a run could not start (the platform's validation wording, joined) in plain words. */
function runErrorSentence(raw: string): string {
  if (/selected model is invalid/i.test(raw)) return fieldSentence('model', 'The selected model is invalid.');
  if (/messages? (field )?must|last message must be from the user/i.test(raw)) return 'This schedule has no message to send. Edit it and type the message each run sends.';
  return generalSentence(new Error(raw));
}
