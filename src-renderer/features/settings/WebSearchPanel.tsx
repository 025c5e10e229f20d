import { useEffect, useId, useRef, useState } from 'react';
import { api, ops, type CallInput } from '../../api';
import { wordErrors } from '../../api/field-errors';
import { ErrorNote } from '../../components/ErrorNote';
import { FieldError, FormError, describedBy } from '../../components/FieldError';
import { formatNumber } from '../../components/format';
import { askConfirm } from '../../stores/confirm';
import { toast } from '../../stores/toasts';
import { Trans, useT } from '../../i18n';
import { useWebSearchStatus } from '../../stores/web-search';
import type { ProvidersSettings } from '../../../src-main/platform/contract/settings';
import './web-search.css';

type Search = ProvidersSettings['search'];
type Outcome = { ok: boolean; text: string } | null;

/**
 * Settings → Web search: the services agents search the web through. A SearXNG address (the
 * person's own instance) and a Brave Search key, each tried with one real search before or after
 * saving. The key is write-only: the field starts empty, "A key is saved" says it is there.
 */
export function WebSearchPanel() {
  const t = useT();
  const [search, setSearch] = useState<Search | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const setConfigured = useWebSearchStatus((s) => s.set);

  useEffect(() => {
    api.call(ops.getProviderSettings, {}).then(
      (s) => setSearch(s.search),
      (err: unknown) => setLoadError(err),
    );
  }, []);
  const saved = (next: Search) => {
    setSearch(next);
    setConfigured(next.configured);
  };

  if (!search) return loadError ? <ErrorNote error={loadError} what={t('webSearch.heading')} /> : <p className="muted">{t('common.loading')}</p>;
  return (
    <div className="stack web-search" style={{ maxWidth: 760 }}>
      <p className="muted">{t('webSearch.intro')}</p>
      <p className={search.configured ? 'note note-ok' : 'note note-muted'} role="status" data-testid="web-search-state">
        {search.searxng_url ? t('webSearch.state.searxng', { host: hostOf(search.searxng_url) }) : search.brave_has_api_key ? t('webSearch.state.brave') : t('webSearch.state.none')}
      </p>
      <SearxngForm search={search} onSaved={saved} />
      <BraveForm search={search} onSaved={saved} />
    </div>
  );
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** A test's answer in a sentence: how many results came back and how fast, or why not. */
function useTest() {
  const t = useT();
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const run = async (body: CallInput<typeof ops.testSearch>['body']) => {
    setTesting(true);
    setOutcome(null);
    try {
      const r = await api.call(ops.testSearch, { body });
      setOutcome(
        r.ok
          ? { ok: true, text: t('webSearch.test.ok', { count: r.results, results: formatNumber(r.results), ms: formatNumber(r.latency_ms) }) + (r.titles[0] ? ` ${t('webSearch.test.first', { title: r.titles[0] })}` : '') }
          : { ok: false, text: t('webSearch.test.failed', { reason: r.error ?? '' }) },
      );
    } catch (err) {
      setOutcome({ ok: false, text: wordErrors(err).general ?? Object.values(wordErrors(err, { fields: {} }).fields)[0] ?? '' });
    } finally {
      setTesting(false);
    }
  };
  return { testing, outcome, run, clear: () => setOutcome(null) };
}

function Outcome({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <div className={outcome.ok ? 'note note-ok small' : 'note note-error small'} role={outcome.ok ? 'status' : 'alert'} data-testid="search-test-result">
      {outcome.text}
    </div>
  );
}

function SearxngForm({ search, onSaved }: { search: Search; onSaved(s: Search): void }) {
  const t = useT();
  const uid = useId();
  const [url, setUrl] = useState(search.searxng_url ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const test = useTest();
  const field = useRef<HTMLInputElement>(null);
  const worded = wordErrors(error, { fields: { searxng_url: t('webSearch.searxng.address') } });
  const typed = url.trim();
  const dirty = typed !== (search.searxng_url ?? '');

  const save = async (value: string | null) => {
    setBusy(true);
    setError(null);
    try {
      const next = (await api.call(ops.updateProviderSettings, { body: { search: { searxng_url: value } } })).search;
      onSaved(next);
      setUrl(next.searxng_url ?? '');
      toast(value ? t('webSearch.searxng.saved') : t('webSearch.searxng.removed'));
      // Where the person goes next: the field they may change again.
      field.current?.focus();
    } catch (err) {
      setError(err);
      field.current?.focus();
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!(await askConfirm({ title: t('webSearch.searxng.removeTitle'), body: t('webSearch.searxng.removeBody'), confirmLabel: t('webSearch.searxng.remove'), danger: true }))) return;
    await save(null);
  };

  return (
    <form
      className="card stack"
      aria-labelledby={`${uid}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        if (typed && dirty) void save(typed);
      }}
      data-testid="searxng-form"
    >
      <h3 id={`${uid}-h`} className="web-search-title">
        {t('webSearch.searxng.title')}
      </h3>
      <p className="muted small">
        <Trans i18nKey="webSearch.searxng.help" components={{ code: <code /> }} />
      </p>
      <label className="field">
        <span>{t('webSearch.searxng.address')}</span>
        <input
          ref={field}
          type="url"
          value={url}
          placeholder="http://localhost:8080"
          onChange={(e) => {
            setUrl(e.target.value);
            test.clear();
          }}
          autoComplete="off"
          spellCheck={false}
          {...describedBy(worded, 'searxng_url', `${uid}-err`)}
          data-testid="searxng-url"
        />
        <FieldError id={`${uid}-err`} text={worded.fields.searxng_url} />
      </label>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy || !typed || !dirty}>
          {busy ? t('webSearch.saving') : t('common.save')}
        </button>
        <button type="button" className="btn" disabled={test.testing || (!typed && !search.searxng_url)} aria-busy={test.testing} onClick={() => void test.run({ backend: 'searxng', ...(typed ? { searxng_url: typed } : {}) })}>
          {test.testing ? t('webSearch.testing') : t('webSearch.test.button')}
        </button>
        {search.searxng_url ? (
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void remove()}>
            {t('webSearch.searxng.remove')}
          </button>
        ) : null}
      </div>
      <FormError worded={worded} error={error} />
      <Outcome outcome={test.outcome} />
    </form>
  );
}

function BraveForm({ search, onSaved }: { search: Search; onSaved(s: Search): void }) {
  const t = useT();
  const uid = useId();
  // Write-only: the field starts empty and is emptied after each save.
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const test = useTest();
  const field = useRef<HTMLInputElement>(null);
  const worded = wordErrors(error, { fields: { brave_api_key: t('webSearch.brave.key') } });
  const typed = key.trim();

  const save = async (value: string | null) => {
    setBusy(true);
    setError(null);
    try {
      const next = (await api.call(ops.updateProviderSettings, { body: { search: { brave_api_key: value } } })).search;
      onSaved(next);
      setKey('');
      toast(value ? t('webSearch.brave.saved') : t('webSearch.brave.removed'));
      field.current?.focus();
    } catch (err) {
      setError(err);
      field.current?.focus();
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!(await askConfirm({ title: t('webSearch.brave.removeTitle'), body: t('webSearch.brave.removeBody'), confirmLabel: t('webSearch.brave.remove'), danger: true }))) return;
    await save(null);
  };

  return (
    <form
      className="card stack"
      aria-labelledby={`${uid}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        if (typed) void save(typed);
      }}
      data-testid="brave-form"
    >
      <h3 id={`${uid}-h`} className="web-search-title">
        {t('webSearch.brave.title')}
      </h3>
      <p className="muted small">{t('webSearch.brave.help')}</p>
      <label className="field">
        <span>{t('webSearch.brave.key')}</span>
        <input
          ref={field}
          type="password"
          value={key}
          placeholder={search.brave_has_api_key ? t('webSearch.brave.keepPlaceholder') : t('webSearch.brave.placeholder')}
          onChange={(e) => {
            setKey(e.target.value);
            test.clear();
          }}
          autoComplete="off"
          spellCheck={false}
          {...describedBy(worded, 'brave_api_key', `${uid}-err`)}
          data-testid="brave-key"
        />
        <FieldError id={`${uid}-err`} text={worded.fields.brave_api_key} />
      </label>
      <p className="small" data-testid="brave-key-state">
        {search.brave_has_api_key ? t('webSearch.brave.keySaved') : <span className="muted">{t('webSearch.brave.noKey')}</span>}
      </p>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy || !typed}>
          {busy ? t('webSearch.saving') : search.brave_has_api_key ? t('webSearch.brave.replace') : t('common.save')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={test.testing || (!typed && !search.brave_has_api_key)}
          aria-busy={test.testing}
          onClick={() => void test.run({ backend: 'brave', ...(typed ? { brave_api_key: typed } : {}) })}
        >
          {test.testing ? t('webSearch.testing') : t('webSearch.test.button')}
        </button>
        {search.brave_has_api_key ? (
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void remove()}>
            {t('webSearch.brave.remove')}
          </button>
        ) : null}
      </div>
      <FormError worded={worded} error={error} />
      <Outcome outcome={test.outcome} />
      {search.searxng_url && search.brave_has_api_key ? <p className="muted small">{t('webSearch.both')}</p> : null}
    </form>
  );
}
