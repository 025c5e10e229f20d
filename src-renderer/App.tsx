import { Suspense, useEffect, useRef } from 'react';
import { ChatScreen } from './features/chat/ChatScreen';
import { Sidebar } from './components/Sidebar';
import { Toasts } from './components/Toasts';
import { ConfirmHost } from './components/confirm';
import { SkipLink } from './components/SkipLink';
import { GlobalDrop } from './components/GlobalDrop';
import { SignedOut } from './components/SignedOut';
import { useNav } from './stores/nav';
import { useAuth } from './stores/auth';
import { useAgents } from './stores/agents';
import { useShortcuts } from './components/use-shortcuts';
import { ShortcutsSheet } from './components/ShortcutsSheet';
import { lazyScreen } from './components/lazy-screen';
import { useT } from './i18n';

// Chat is the first screen, so it ships in the main bundle; the others load when opened.
const AgentsScreen = lazyScreen(() => import('./features/agents/AgentsScreen'));
const FilesScreen = lazyScreen(() => import('./features/files/FilesScreen'));
const MemoriesScreen = lazyScreen(() => import('./features/memories/MemoriesScreen'));
const WebhooksScreen = lazyScreen(() => import('./features/webhooks/WebhooksScreen'));
const SchedulesScreen = lazyScreen(() => import('./features/schedules/SchedulesScreen'));
const UsageScreen = lazyScreen(() => import('./features/usage/UsageScreen'));
const SettingsScreen = lazyScreen(() => import('./features/settings/SettingsScreen'));
const DeveloperScreen = lazyScreen(() => import('./features/developer/DeveloperScreen'));

function Screen() {
  const screen = useNav((s) => s.screen);
  switch (screen) {
    case 'agents':
      return <AgentsScreen />;
    case 'files':
      return <FilesScreen />;
    case 'memories':
      return <MemoriesScreen />;
    case 'webhooks':
      return <WebhooksScreen />;
    case 'schedules':
      return <SchedulesScreen />;
    case 'usage':
      return <UsageScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'developer':
      return <DeveloperScreen />;
    default:
      return <ChatScreen />;
  }
}

export function App() {
  const signedOut = useAuth((s) => s.signedOut);
  const screen = useNav((s) => s.screen);
  const loadAgents = useAgents((s) => s.load);
  const first = useRef(true);
  const t = useT();
  useShortcuts();
  useEffect(() => {
    void loadAgents();
  }, [loadAgents]);
  useEffect(() => {
    // On a screen change, move focus to its heading so keyboard and screen-reader users land
    // there; not at start, where the chat's message box keeps it.
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
  }, [screen]);

  return (
    <GlobalDrop>
      <div className="app">
        <SkipLink chat={screen === 'chat' && !signedOut} />
        <Sidebar />
        <main className="main" id="main">
          {signedOut ? (
            <SignedOut />
          ) : (
            <Suspense fallback={<div className="loading" aria-busy="true">{t('common.loading')}</div>}>
              <Screen />
            </Suspense>
          )}
        </main>
        <Toasts />
        <ConfirmHost />
        <ShortcutsSheet />
      </div>
    </GlobalDrop>
  );
}
