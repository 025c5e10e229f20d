import './zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { EngineBanner } from './components/EngineBanner';
import './styles/theme.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/screens.css';
import './styles/markdown.css';
import { startLocale, syncLocaleSetting } from './stores/locale';

// The first paint speaks the chosen language: its catalog loads before the app renders.
void startLocale().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <EngineBanner />
      <App />
    </StrictMode>,
  );
  void syncLocaleSetting();
});
