import { useNav } from '../../stores/nav';
import { ProvidersPanel } from './ProvidersPanel';
import { KeysPanel } from './KeysPanel';
import { LocalhostPanel } from './LocalhostPanel';
import { DataPanel } from './DataPanel';
import { RemotePanel } from './RemotePanel';
import { McpServersPanel } from './McpServersPanel';
import { OcrPanel } from './OcrPanel';
import { LanguagePanel } from './LanguagePanel';
import { WebSearchPanel } from './WebSearchPanel';
import { VoicePanel } from './VoicePanel';
import { SearchModelPanel } from './SearchModelPanel';
import { Screen } from '../../components/Screen';
import { useT } from '../../i18n';

// Each tab's name is settings.tabs.<id> in the catalogs (web search's is its own panel's).
const TABS = ['providers', 'search', 'remote', 'tools', 'keys', 'localhost', 'data', 'ocr', 'searchModels', 'language', 'voice'] as const;

export default function SettingsScreen() {
  const { sub, go } = useNav();
  const t = useT();
  const tab = TABS.find((id) => id === sub) ?? 'providers';
  const label = (id: (typeof TABS)[number]) => (id === 'search' ? t('webSearch.tab') : id === 'voice' ? t('voice.tab') : id === 'searchModels' ? t('searchModels.tab') : t(`settings.tabs.${id}`));
  return (
    <Screen id="settings" title={t('settings.title')}>
      <div className="tabs" role="tablist" aria-label={t('settings.sections')}>
        {TABS.map((id) => (
          <button key={id} type="button" role="tab" className="tab" aria-selected={tab === id} onClick={() => go('settings', id)}>
            {label(id)}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={label(tab)}>
        {tab === 'providers' ? <ProvidersPanel /> : null}
        {tab === 'search' ? <WebSearchPanel /> : null}
        {tab === 'remote' ? <RemotePanel /> : null}
        {tab === 'tools' ? <McpServersPanel /> : null}
        {tab === 'keys' ? <KeysPanel /> : null}
        {tab === 'localhost' ? <LocalhostPanel /> : null}
        {tab === 'data' ? <DataPanel /> : null}
        {tab === 'ocr' ? <OcrPanel /> : null}
        {tab === 'searchModels' ? <SearchModelPanel /> : null}
        {tab === 'language' ? <LanguagePanel /> : null}
        {tab === 'voice' ? <VoicePanel /> : null}
      </div>
    </Screen>
  );
}
