import { useEffect, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import type { Schedule } from '../../../src-main/platform/contract/schedules';
import { api, messageOf, ops } from '../../api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { toast } from '../../stores/toasts';
import { useLoad } from '../../components/use-load';
import { describeTiming, formatAt } from './describe';
import { TONE_BADGE, runOutcome } from './run-outcome';
import { RunList } from './RunList';
import { ScheduleForm } from './ScheduleForm';
import { t, useT } from '../../i18n';

/** How often a card looks at a run still starting or running. */
const RUNNING_POLL_MS = 2000;

/** One schedule: its timing in words, next and last run, and its actions (pause/resume, edit, delete, runs). */
export function ScheduleCard({ schedule: s, agents, onChanged }: { schedule: Schedule; agents: Agent[]; onChanged(): Promise<void> }) {
  const tr = useT();
  const [showRuns, setShowRuns] = useState(false);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [runsKey, setRunsKey] = useState(0);
  // The latest run, read again whenever the schedule records a new one (the screen keeps the list
  // fresh) and, while it runs, until it settles.
  const latest = useLoad(() => (s.last_run_at ? api.call(ops.listScheduleRuns, { params: { id: s.id }, query: { per_page: 1 } }) : Promise.resolve(null)), [s.id, s.last_run_at]);
  const run = latest.data?.data[0] ?? null;
  const outcome = run ? runOutcome(run) : null;
  const { reload } = latest;
  useEffect(() => {
    if (!outcome || outcome.settled || latest.loading) return;
    const t = setTimeout(() => void reload(), RUNNING_POLL_MS);
    return () => clearTimeout(t);
  }, [outcome?.settled, latest.loading, latest.data, reload]);
  const agent = agents.find((a) => a.id === s.agent_id);
  const title = s.name || agent?.title || tr('schedules.card.agentGone');
  const headingId = `schedule-${s.id}-title`;

  const act = async (fn: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await fn();
      toast(done);
      await onChanged();
    } catch (err) {
      toast(messageOf(err), 'error');
    } finally {
      setBusy(false);
    }
  };

  if (editing) {
    return (
      <ScheduleForm
        agents={agents}
        schedule={s}
        onCancel={() => setEditing(false)}
        onSaved={() => {
          setEditing(false);
          toast(t('schedules.card.saved'));
          void onChanged();
        }}
      />
    );
  }

  return (
    <article className="card stack schedule-card" aria-labelledby={headingId} data-testid="schedule">
      <div className="row">
        <h3 id={headingId} className="grow schedule-title">
          {title}
        </h3>
        <span className={s.enabled ? 'badge badge-ok' : 'badge'} data-testid="schedule-state">
          {s.enabled ? tr('schedules.card.active') : tr('schedules.card.paused')}
        </span>
      </div>
      <p className="schedule-when-text" data-testid="schedule-timing">
        {describeTiming(s)}
        {s.name && agent ? <span className="muted"> · {agent.title}</span> : null}
      </p>
      <dl className="schedule-facts small">
        <div>
          <dt>{tr('schedules.card.next')}</dt>
          <dd data-testid="schedule-next">{s.enabled ? formatAt(s.next_run_at) : tr('schedules.card.paused')}</dd>
        </div>
        <div>
          <dt>{tr('schedules.card.last')}</dt>
          <dd data-testid="schedule-last" data-state={outcome ? (outcome.settled ? outcome.tone : 'busy') : s.last_run_at ? 'busy' : 'never'}>
            {outcome ? (
              <>
                {formatAt(outcome.at)}{' '}
                <span className={TONE_BADGE[outcome.tone]} data-testid="schedule-last-outcome">
                  {outcome.word}
                </span>
                {outcome.reason ? <span className="schedule-last-reason muted">{outcome.reason}</span> : null}
              </>
            ) : s.last_run_at ? (
              formatAt(s.last_run_at)
            ) : (
              tr('schedules.card.never')
            )}
          </dd>
        </div>
      </dl>
      <div className="row small">
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void act(() => api.call(ops.updateSchedule, { params: { id: s.id }, body: { enabled: !s.enabled } }), s.enabled ? t('schedules.card.pausedToast') : t('schedules.card.resumedToast'))}>
          {s.enabled ? tr('schedules.card.pause') : tr('schedules.card.resume')}
        </button>
        <button type="button" className="btn btn-small" onClick={() => setEditing(true)}>
          {tr('common.edit')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          aria-expanded={showRuns}
          onClick={() => {
            setShowRuns(!showRuns);
            setRunsKey((k) => k + 1);
          }}
        >
          {showRuns ? tr('schedules.card.hideRuns') : tr('schedules.card.pastRuns')}
        </button>
        <span className="grow" />
        <button type="button" className="btn btn-small" onClick={() => setConfirming(true)}>
          {tr('common.delete')}
        </button>
      </div>
      {showRuns ? <RunList scheduleId={s.id} refreshKey={`${runsKey}:${s.last_run_at ?? ''}`} /> : null}
      <ConfirmDialog
        open={confirming}
        title={tr('schedules.card.deleteTitle')}
        confirmLabel={tr('schedules.card.deleteConfirm')}
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void act(() => api.call(ops.deleteSchedule, { params: { id: s.id } }), t('schedules.card.deleted'));
        }}
      >
        <p>{tr('schedules.card.deleteBody', { title })}</p>
      </ConfirmDialog>
    </article>
  );
}
