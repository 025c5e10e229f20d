import { SCREENS, useNav } from '../stores/nav';
import { useTheme } from '../stores/theme';
import { useT } from '../i18n';

export function Sidebar() {
  const { screen, go } = useNav();
  const { choice, cycle } = useTheme();
  const t = useT();
  const theme = t(`app.theme.${choice}`);
  return (
    <nav className="sidebar" aria-label={t('app.screensNav')}>
      <div className="brand">Agent Desk</div>
      <ul>
        {SCREENS.map((s) => (
          <li key={s.id}>
            <a
              href={`#/${s.id}`}
              className={screen === s.id ? 'nav-link active' : 'nav-link'}
              aria-current={screen === s.id ? 'page' : undefined}
              title={t('app.screenShortcut', { screen: t(`app.screens.${s.id}`), key: s.key })}
              onClick={(e) => {
                e.preventDefault();
                go(s.id);
              }}
            >
              <span>{t(`app.screens.${s.id}`)}</span>
              <kbd aria-hidden="true">g {s.key}</kbd>
            </a>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-ghost theme-toggle" onClick={cycle} aria-label={t('app.theme.change', { theme })}>
        {theme}
      </button>
    </nav>
  );
}
