import { useEffect } from 'react';
import { useNav } from '../../stores/nav';
import { useT } from '../../i18n';
import { useWebSearchStatus, WEB_SEARCH_SETTINGS } from '../../stores/web-search';
import './web-search.css';

/** Whether a web search service is set up: asked once where a picker offers web search (null until known). */
export function useWebSearchReady(wanted: boolean): boolean | null {
  const { configured, load } = useWebSearchStatus();
  useEffect(() => {
    if (wanted && configured === null) void load();
  }, [wanted, configured, load]);
  return configured;
}

/**
 * Web search was chosen but no search service is set up: said plainly, with the way to set it up
 * (Settings → Web search) and, where the choice can be changed, the way to answer without it.
 */
export function WebSearchMissing({ compact = false, onWithout }: { compact?: boolean; onWithout?(): void }) {
  const t = useT();
  const go = useNav((s) => s.go);
  return (
    <p className={compact ? 'muted small web-search-missing' : 'note note-warn small web-search-missing'} role={compact ? undefined : 'status'} data-testid="web-search-missing">
      {t('webSearch.picker.notSetUp')}{' '}
      <a
        href={`#/${WEB_SEARCH_SETTINGS.screen}/${WEB_SEARCH_SETTINGS.sub}`}
        onClick={(e) => {
          e.preventDefault();
          go(WEB_SEARCH_SETTINGS.screen, WEB_SEARCH_SETTINGS.sub);
        }}
      >
        {t('webSearch.picker.setUp')}
      </a>
      {onWithout ? (
        <>
          {' · '}
          <button type="button" className="btn-link" onClick={onWithout}>
            {t('webSearch.picker.without')}
          </button>
        </>
      ) : null}
    </p>
  );
}
