import { useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { formatCredits } from '../../components/format';
import { useLoad } from '../../components/use-load';
import { UsageChart } from './UsageChart';

export function UsagePanel() {
  const [days, setDays] = useState(30);
  const usage = useLoad(() => api.usage(days), [days]);
  const series = usage.data?.data ?? [];
  const f = usage.data?.formula;
  return (
    <div className="stack">
      <div className="row">
        <label className="field inline">
          <span>Period</span>
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            <option value={7}>7 days</option>
            <option value={30}>30 days</option>
            <option value={90}>90 days</option>
          </select>
        </label>
        {usage.data ? (
          <span>
            <strong data-testid="usage-total">{formatCredits(usage.data.total_credits)}</strong> credits in {days} days · {usage.data.executions} executions · {usage.data.files} files processed
          </span>
        ) : null}
      </div>
      <ErrorNote error={usage.error} what="Usage" />
      {usage.data ? <UsageChart series={series} /> : null}
      {f ? (
        <p className="muted small">
          How credits are counted: an execution costs {f.executionBase} plus {f.per1kInputTokens} per 1,000 input tokens and {f.per1kOutputTokens} per 1,000 output tokens; a
          processed file costs {f.fileBase} plus {f.perMiB} per MiB.
        </p>
      ) : null}
    </div>
  );
}
