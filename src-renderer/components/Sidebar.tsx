import { SCREENS, useNav } from '../stores/nav';
import { useTheme } from '../stores/theme';

const THEME_LABEL = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' } as const;

export function Sidebar() {
  const { screen, go } = useNav();
  const { choice, cycle } = useTheme();
  return (
    <nav className="sidebar" aria-label="Screens">
      <div className="brand">Agent Desk</div>
      <ul>
        {SCREENS.map((s) => (
          <li key={s.id}>
            <a
              href={`#/${s.id}`}
              className={screen === s.id ? 'nav-link active' : 'nav-link'}
              aria-current={screen === s.id ? 'page' : undefined}
              title={`${s.label} (g then ${s.key})`}
              onClick={(e) => {
                e.preventDefault();
                go(s.id);
              }}
            >
              <span>{s.label}</span>
              <kbd aria-hidden="true">g {s.key}</kbd>
            </a>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-ghost theme-toggle" onClick={cycle} aria-label={`${THEME_LABEL[choice]}. Change theme`}>
        {THEME_LABEL[choice]}
      </button>
    </nav>
  );
}
