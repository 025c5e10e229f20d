import { useEffect, useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { ScheduleCard } from './ScheduleCard';
import { ScheduleForm } from './ScheduleForm';
import { nextRefreshIn } from './describe';
import './schedules.css';
import { Screen } from '../../components/Screen';

export default function SchedulesScreen() {
  const agents = useAgents((s) => s.agents);
  const agentsLoaded = useAgents((s) => s.loaded);
  const list = useLoad(() => api.schedules.list(), []);
  const [formKey, setFormKey] = useState(0);
  const schedules = list.data?.data ?? [];
  // While the screen is open its cards follow the runs: "Last run" changes without a reload.
  const { reload, data, error } = list;
  useEffect(() => {
    const t = setTimeout(() => void reload(), nextRefreshIn(data?.data ?? [], Date.now()));
    return () => clearTimeout(t);
  }, [data, error, reload]);

  return (
    <Screen id="schedules" title="Schedules">
      <p className="muted">
        A schedule runs an agent by itself, every N minutes or at the times of a cron expression in a time zone, with the same message or answers each time. Every run is an execution: it shows up in Chat as a conversation and fires the agent’s webhooks.
        A run missed while Agent Desk was closed runs once at the next start.
      </p>
      <div className="schedules-layout">
        <div className="stack">
          {agentsLoaded && !agents.length ? (
            <p className="note note-muted">Create an agent first (Agents screen); a schedule runs one of your agents.</p>
          ) : agents.length ? (
            <ScheduleForm
              key={formKey}
              agents={agents}
              schedule={null}
              onSaved={() => {
                toast('Schedule created.');
                setFormKey((k) => k + 1);
                void list.reload();
              }}
            />
          ) : null}
        </div>
        <div className="stack schedules-list" aria-label="Your schedules" role="region">
          <h2 className="section-title" style={{ marginTop: 0 }}>
            Your schedules{list.data ? ` (${list.data.total})` : ''}
          </h2>
          <ErrorNote error={list.error} what="Schedules" />
          {list.data && !schedules.length ? (
            <div className="card schedules-empty" data-testid="schedules-empty">
              <p>
                <strong>No schedules yet.</strong>
              </p>
              <p className="muted">
                Use one to have an agent send you a morning digest on weekdays, check something every 15 minutes, or summarise a folder every Friday. Create it with the form; each run’s
                conversation will be listed here.
              </p>
            </div>
          ) : null}
          {schedules.map((s) => (
            <ScheduleCard key={s.id} schedule={s} agents={agents} onChanged={list.reload} />
          ))}
        </div>
      </div>
    </Screen>
  );
}
