import { useState } from 'react';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import type { GpuInfo } from '../../../src-main/platform/contract/app-settings';

const CHOICES: { value: GpuInfo['gpu']; label: string }[] = [
  { value: 'auto', label: 'Automatic (Metal, CUDA or Vulkan when available)' },
  { value: 'off', label: 'Off (CPU only)' },
  { value: 'cuda', label: 'CUDA (NVIDIA)' },
  { value: 'vulkan', label: 'Vulkan' },
  { value: 'metal', label: 'Metal (Apple)' },
];

const backendText = (g: GpuInfo) => (g.backend === null ? 'not started yet (starts with the first local model)' : g.backend === 'cpu' ? 'CPU' : g.backend.toUpperCase());

/** The GPU used by local GGUF models: what runs now, and the choice (AGENT_DESK_GPU wins when set). */
export function GpuSetting({ initial }: { initial: GpuInfo }) {
  const [gpu, setGpu] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const change = async (value: GpuInfo['gpu']) => {
    try {
      setGpu(await api.settings.saveGpu(value));
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div>
      <dt className="muted small">GPU for local models</dt>
      <dd className="row" style={{ margin: 0 }}>
        <span data-testid="gpu-backend">In use: {backendText(gpu)}</span>
        <select aria-label="GPU for local models" value={gpu.gpu} disabled={gpu.from_env} onChange={(e) => void change(e.target.value as GpuInfo['gpu'])}>
          {CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </dd>
      <dd className="muted small" style={{ margin: 0 }}>
        {gpu.from_env ? 'Set by AGENT_DESK_GPU. ' : ''}
        {gpu.note ? `${gpu.note}. ` : ''}
        {gpu.restart_required ? 'The new choice applies when Agent Desk restarts.' : ''}
      </dd>
      {error ? <ErrorNote error={error} what="GPU setting" /> : null}
    </div>
  );
}
