import { useEffect, useId, useRef, useState, type RefObject } from 'react';
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

type Backend = 'searxng' | 'brave';

/**
 * Saving one service's setting (null removes it, once the person confirms), as both forms do:
 * the toast says what happened, and focus goes back to the field either way.
 */
function useBackendSave(backend: Backend, onSaved: (s: Search) => void, reset: (s: Search) => void) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const field = useRef<HTMLInputElement>(null);
  const save = async (value: string | null) => {
    setBusy(true);
    setError(null);
    try {
      const search = backend === 'searxng' ? { searxng_url: value } : { brave_api_key: value };
      const next = (await api.call(ops.updateProviderSettings, { body: { search } })).search;
      onSaved(next);
      reset(next);
      toast(value ? t(`webSearch.${backend}.saved`) : t(`webSearch.${backend}.removed`));
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
    if (!(await askConfirm({ title: t(`webSearch.${backend}.removeTitle`), body: t(`webSearch.${backend}.removeBody`), confirmLabel: t(`webSearch.${backend}.remove`), danger: true }))) return;
    await save(null);
  };
  return { busy, error, field, save, remove };
}

/** A form's one field (the address or the key), with the error the platform gave for it. */
function BackendField(props: {
  label: string;
  name: 'searxng_url' | 'brave_api_key';
  type: 'url' | 'password';
  value: string;
  placeholder: string;
  onChange(value: string): void;
  input: RefObject<HTMLInputElement | null>;
  worded: ReturnType<typeof wordErrors>;
  errorId: string;
  testId: string;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        ref={props.input}
        type={props.type}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
        autoComplete="off"
        spellCheck={false}
        {...describedBy(props.worded, props.name, props.errorId)}
        data-testid={props.testId}
      />
      <FieldError id={props.errorId} text={props.worded.fields[props.name]} />
    </label>
  );
}

/** A form's buttons (Save, Test, Remove when something is saved), its error and its test's answer. */
function FormEnd(props: {
  backend: Backend;
  saving: ReturnType<typeof useBackendSave>;
  test: ReturnType<typeof useTest>;
  canSave: boolean;
  saveLabel: string;
  canTest: boolean;
  onTest(): void;
  stored: boolean;
  worded: ReturnType<typeof wordErrors>;
}) {
  const t = useT();
  const { busy, error, remove } = props.saving;
  return (
    <>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy || !props.canSave}>
          {busy ? t('webSearch.saving') : props.saveLabel}
        </button>
        <button type="button" className="btn" disabled={props.test.testing || !props.canTest} aria-busy={props.test.testing} onClick={props.onTest}>
          {props.test.testing ? t('webSearch.testing') : t('webSearch.test.button')}
        </button>
        {props.stored ? (
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void remove()}>
            {t(`webSearch.${props.backend}.remove`)}
          </button>
        ) : null}
      </div>
      <FormError worded={props.worded} error={error} />
      <Outcome outcome={props.test.outcome} />
    </>
  );
}

function SearxngForm({ search, onSaved }: { search: Search; onSaved(s: Search): void }) {
  const t = useT();
  const uid = useId();
  const [url, setUrl] = useState(search.searxng_url ?? '');
  const saving = useBackendSave('searxng', onSaved, (next) => setUrl(next.searxng_url ?? ''));
  const test = useTest();
  const worded = wordErrors(saving.error, { fields: { searxng_url: t('webSearch.searxng.address') } });
  const typed = url.trim();
  const dirty = typed !== (search.searxng_url ?? '');

  return (
    <form
      className="card stack"
      aria-labelledby={`${uid}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        if (typed && dirty) void saving.save(typed);
      }}
      data-testid="searxng-form"
    >
      <h3 id={`${uid}-h`} className="web-search-title">
        {t('webSearch.searxng.title')}
      </h3>
      <p className="muted small">
        <Trans i18nKey="webSearch.searxng.help" components={{ code: <code /> }} />
      </p>
      <BackendField
        label={t('webSearch.searxng.address')}
        name="searxng_url"
        type="url"
        value={url}
        placeholder="http://localhost:8080"
        onChange={(v) => {
          setUrl(v);
          test.clear();
        }}
        input={saving.field}
        worded={worded}
        errorId={`${uid}-err`}
        testId="searxng-url"
      />
      <FormEnd
        backend="searxng"
        saving={saving}
        test={test}
        canSave={!!typed && dirty}
        saveLabel={t('common.save')}
        canTest={!!typed || !!search.searxng_url}
        onTest={() => void test.run({ backend: 'searxng', ...(typed ? { searxng_url: typed } : {}) })}
        stored={!!search.searxng_url}
        worded={worded}
      />
    </form>
  );
}

function BraveForm({ search, onSaved }: { search: Search; onSaved(s: Search): void }) {
  const t = useT();
  const uid = useId();
  // Write-only: the field starts empty and is emptied after each save.
  const [key, setKey] = useState('');
  const saving = useBackendSave('brave', onSaved, () => setKey(''));
  const test = useTest();
  const worded = wordErrors(saving.error, { fields: { brave_api_key: t('webSearch.brave.key') } });
  const typed = key.trim();

  return (
    <form
      className="card stack"
      aria-labelledby={`${uid}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        if (typed) void saving.save(typed);
      }}
      data-testid="brave-form"
    >
      <h3 id={`${uid}-h`} className="web-search-title">
        {t('webSearch.brave.title')}
      </h3>
      <p className="muted small">{t('webSearch.brave.help')}</p>
      <BackendField
        label={t('webSearch.brave.key')}
        name="brave_api_key"
        type="password"
        value={key}
        placeholder={search.brave_has_api_key ? t('webSearch.brave.keepPlaceholder') : t('webSearch.brave.placeholder')}
        onChange={(v) => {
          setKey(v);
          test.clear();
        }}
        input={saving.field}
        worded={worded}
        errorId={`${uid}-err`}
        testId="brave-key"
      />
      <p className="small" data-testid="brave-key-state">
        {search.brave_has_api_key ? t('webSearch.brave.keySaved') : <span className="muted">{t('webSearch.brave.noKey')}</span>}
      </p>
      <FormEnd
        backend="brave"
        saving={saving}
        test={test}
        canSave={!!typed}
        saveLabel={search.brave_has_api_key ? t('webSearch.brave.replace') : t('common.save')}
        canTest={!!typed || search.brave_has_api_key}
        onTest={() => void test.run({ backend: 'brave', ...(typed ? { brave_api_key: typed } : {}) })}
        stored={search.brave_has_api_key}
        worded={worded}
      />
      {search.searxng_url && search.brave_has_api_key ? <p className="muted small">{t('webSearch.both')}</p> : null}
    </form>
  );
}
