import { useState } from 'react';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import type { GpuInfo } from '../../../src-main/platform/contract/app-settings';
import { platformText, t, useT } from '../../i18n';

// Each choice's words are settings.gpu.choices.<value>.
const CHOICES: GpuInfo['gpu'][] = ['auto', 'off', 'cuda', 'vulkan', 'metal'];

const backendText = (g: GpuInfo) => (g.backend === null ? t('settings.gpu.notStarted') : g.backend === 'cpu' ? 'CPU' : g.backend.toUpperCase());

/** The platform's note ("no supported GPU found; using the CPU") in the app's words. */
const noteText = (note: string) => platformText(note, () => (/no supported GPU/i.test(note) ? t('settings.gpu.noGpu') : t('settings.gpu.couldNotStart')));

/** The GPU used by local GGUF models: what runs now, and the choice (AGENT_DESK_GPU wins when set). */
export function GpuSetting({ initial }: { initial: GpuInfo }) {
  const tr = useT();
  const [gpu, setGpu] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const change = async (value: GpuInfo['gpu']) => {
    try {
      setGpu(await api.call(ops.updateGpuSettings, { body: { gpu: value } }));
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div>
      <dt className="muted small">{tr('settings.gpu.label')}</dt>
      <dd className="row" style={{ margin: 0 }}>
        <span data-testid="gpu-backend">{tr('settings.gpu.inUse', { backend: backendText(gpu) })}</span>
        <select aria-label={tr('settings.gpu.label')} value={gpu.gpu} disabled={gpu.from_env} onChange={(e) => void change(e.target.value as GpuInfo['gpu'])}>
          {CHOICES.map((c) => (
            <option key={c} value={c}>
              {tr(`settings.gpu.choices.${c}`)}
            </option>
          ))}
        </select>
      </dd>
      <dd className="muted small" style={{ margin: 0 }}>
        {[gpu.from_env ? tr('settings.gpu.fromEnv') : '', gpu.note ? `${noteText(gpu.note)}.` : '', gpu.restart_required ? tr('settings.gpu.restart') : ''].filter(Boolean).join(' ')}
      </dd>
      {error ? <ErrorNote error={error} what={tr('settings.gpu.what')} /> : null}
    </div>
  );
}
