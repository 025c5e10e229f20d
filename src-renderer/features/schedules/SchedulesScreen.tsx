import { useEffect, useState } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { useAgents } from '../../stores/agents';
import { toast } from '../../stores/toasts';
import { ScheduleCard } from './ScheduleCard';
import { ScheduleForm } from './ScheduleForm';
import { nextRefreshIn } from './describe';
import './schedules.css';
import { Screen } from '../../components/Screen';
import { t, useT } from '../../i18n';

export default function SchedulesScreen() {
  const tr = useT();
  const agents = useAgents((s) => s.agents);
  const agentsLoaded = useAgents((s) => s.loaded);
  const list = useLoad(() => api.call(ops.listSchedules, { query: { per_page: 100 } }), []);
  const [formKey, setFormKey] = useState(0);
  const schedules = list.data?.data ?? [];
  // While the screen is open its cards follow the runs: "Last run" changes without a reload.
  const { reload, data, error } = list;
  useEffect(() => {
    const t = setTimeout(() => void reload(), nextRefreshIn(data?.data ?? [], Date.now()));
    return () => clearTimeout(t);
  }, [data, error, reload]);

  return (
    <Screen id="schedules" title={tr('app.screens.schedules')}>
      <p className="muted">{tr('schedules.intro')}</p>
      <div className="schedules-layout">
        <div className="stack">
          {agentsLoaded && !agents.length ? (
            <p className="note note-muted">{tr('schedules.noAgents')}</p>
          ) : agents.length ? (
            <ScheduleForm
              key={formKey}
              agents={agents}
              schedule={null}
              onSaved={() => {
                toast(t('schedules.created'));
                setFormKey((k) => k + 1);
                void list.reload();
              }}
            />
          ) : null}
        </div>
        <div className="stack schedules-list" aria-label={tr('schedules.yours')} role="region">
          <h2 className="section-title" style={{ marginTop: 0 }}>
            {list.data ? tr('schedules.yoursCount', { count: list.data.total }) : tr('schedules.yours')}
          </h2>
          <ErrorNote error={list.error} what={tr('app.screens.schedules')} />
          {list.data && !schedules.length ? (
            <div className="card schedules-empty" data-testid="schedules-empty">
              <p>
                <strong>{tr('schedules.none')}</strong>
              </p>
              <p className="muted">{tr('schedules.noneHelp')}</p>
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
