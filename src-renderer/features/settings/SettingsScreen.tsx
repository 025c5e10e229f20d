import { useNav } from '../../stores/nav';
import { ProvidersPanel } from './ProvidersPanel';
import { KeysPanel } from './KeysPanel';
import { LocalhostPanel } from './LocalhostPanel';
import { DataPanel } from './DataPanel';
import { RemotePanel } from './RemotePanel';
import { McpServersPanel } from './McpServersPanel';
import { OcrPanel } from './OcrPanel';
import { Screen } from '../../components/Screen';

const TABS = [
  { id: 'providers', label: 'Providers' },
  { id: 'remote', label: 'Remote' },
  { id: 'tools', label: 'MCP servers' },
  { id: 'keys', label: 'API keys' },
  { id: 'localhost', label: 'Localhost API' },
  { id: 'data', label: 'Data folder' },
  { id: 'ocr', label: 'OCR' },
] as const;

export default function SettingsScreen() {
  const { sub, go } = useNav();
  const tab = TABS.find((t) => t.id === sub)?.id ?? 'providers';
  return (
    <Screen id="settings" title="Settings">
      <div className="tabs" role="tablist" aria-label="Settings sections">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" className="tab" aria-selected={tab === t.id} onClick={() => go('settings', t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={TABS.find((t) => t.id === tab)?.label}>
        {tab === 'providers' ? <ProvidersPanel /> : null}
        {tab === 'remote' ? <RemotePanel /> : null}
        {tab === 'tools' ? <McpServersPanel /> : null}
        {tab === 'keys' ? <KeysPanel /> : null}
        {tab === 'localhost' ? <LocalhostPanel /> : null}
        {tab === 'data' ? <DataPanel /> : null}
        {tab === 'ocr' ? <OcrPanel /> : null}
      </div>
    </Screen>
  );
}
