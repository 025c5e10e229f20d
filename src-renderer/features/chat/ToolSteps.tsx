import { useEffect, useState } from 'react';
import type { ToolStep } from '../../../src-main/platform/contract/tools';
import { isFinished } from '../../../src-main/platform/contract/executions';
import { api, ops } from '../../api';
import { ToolStepCard } from './ToolStepCard';
import { useT } from '../../i18n';
import './tool-steps.css';

const POLL_MS = 400;

/**
 * The tool calls of one answer (ext `steps`), read from the execution while it runs and once when
 * it is stored; a call waiting for approval shows Allow once / Always / Deny.
 */
export function ToolSteps({ responseId, live, known }: { responseId: number | null; live: boolean; known?: ToolStep[] }) {
  const t = useT();
  const [read, setSteps] = useState<ToolStep[] | null>(null);
  // A stored answer brings its steps with its conversation: nothing to ask the platform for.
  const settled = !live && known !== undefined;
  const steps = (settled ? known : read) ?? known ?? [];
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (responseId === null || settled) return;
    let gone = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const e = await api.call(ops.getAgentResponse, { params: { id: responseId } });
        if (gone) return;
        setSteps(e.steps ?? []);
        if (!isFinished(e.status)) timer = setTimeout(() => void load(), POLL_MS);
      } catch {
        if (!gone && live) timer = setTimeout(() => void load(), POLL_MS * 3);
      }
    };
    void load();
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [responseId, live, tick, settled]);
  if (!steps.length || responseId === null) return null;
  return (
    <div className="tool-steps" aria-label={t('chat.tools.used')} data-testid="tool-steps">
      {steps.map((s) => (
        <ToolStepCard key={s.id} step={s} executionId={responseId} onAnswered={() => setTick((n) => n + 1)} />
      ))}
    </div>
  );
}
