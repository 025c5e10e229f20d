import { useId, useState } from 'react';
import type { FileObject } from '../../api';
import { api, ops } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { formatBytes } from '../../components/format';
import { useLoad } from '../../components/use-load';
import { ScreenLink } from '../../components/ScreenLink';
import { Trans, useT } from '../../i18n';

/** The files the agent reads from, as the editor will leave them on Save. */
export interface FilesDraft {
  /** linked now (as loaded) */
  linked: FileObject[];
  add: number[];
  remove: number[];
}

/**
 * The agent's files: the ones it reads from, and uploaded files to give it. Changes are kept
 * here and sent on Save (link and unlink), so Cancel leaves the agent as it was.
 */
export function AgentFilesField({ agentId, draft, onDraft }: { agentId: number; draft: FilesDraft | null; onDraft(d: FilesDraft): void }) {
  const uid = useId();
  const t = useT();
  const [pick, setPick] = useState('');
  const linked = useLoad(async () => {
    const set = await api.call(ops.listAgentFiles, { params: { agentId } });
    onDraft({ linked: set.files, add: [], remove: [] });
    return set;
  }, [agentId]);
  const uploaded = useLoad(() => api.call(ops.listFiles, { query: { per_page: 100 } }), []);
  if (!draft) {
    return linked.error ? (
      <ErrorNote error={linked.error} what={t('agents.filesField.what')} />
    ) : (
      <p className="muted small" aria-busy="true">
        {t('agents.filesField.loading')}
      </p>
    );
  }

  const all = uploaded.data?.data ?? [];
  const byId = new Map([...all, ...draft.linked].map((f) => [f.id, f]));
  const shown = [...draft.linked.map((f) => f.id).filter((id) => !draft.remove.includes(id)), ...draft.add];
  const offered = all.filter((f) => !shown.includes(f.id));

  return (
    <fieldset className="agent-section" data-testid="agent-files">
      <legend>{t('agents.filesField.legend')}</legend>
      <p className="muted small agent-section-help">{t('agents.filesField.help')}</p>
      {shown.length ? (
        <ul className="agent-files">
          {shown.map((id) => {
            const f = byId.get(id);
            const name = f?.filename ?? t('agents.filesField.aFile');
            return (
              <li key={id} className="row" data-testid="agent-file">
                <span className="grow">
                  {name} {f ? <span className="muted small">{formatBytes(f.bytes)}</span> : null}
                  {draft.add.includes(id) ? <span className="muted small">{t('agents.filesField.addedOnSave')}</span> : null}
                </span>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={t('agents.filesField.removeOf', { name })}
                  onClick={() => onDraft(draft.add.includes(id) ? { ...draft, add: draft.add.filter((x) => x !== id) } : { ...draft, remove: [...draft.remove, id] })}
                >
                  {t('agents.filesField.remove')}
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="small">{t('agents.filesField.none')}</p>
      )}
      {offered.length ? (
        <div className="row">
          <label className="sr-only" htmlFor={`${uid}-pick`}>
            {t('agents.filesField.pickLabel')}
          </label>
          <select id={`${uid}-pick`} className="grow" value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">{t('agents.filesField.pick')}</option>
            {offered.map((f) => (
              <option key={f.id} value={f.id}>
                {f.filename}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-small"
            disabled={!pick}
            onClick={() => {
              const id = Number(pick);
              onDraft(draft.remove.includes(id) ? { ...draft, remove: draft.remove.filter((x) => x !== id) } : { ...draft, add: [...draft.add, id] });
              setPick('');
            }}
          >
            {t('agents.filesField.add')}
          </button>
        </div>
      ) : uploaded.data && !all.length ? (
        <p className="muted small">
          <Trans
            i18nKey="agents.filesField.uploadFirst"
            components={{
              to: (
                <ScreenLink screen="files" />
              ),
            }}
          />
        </p>
      ) : null}
      <ErrorNote error={uploaded.error} what={t('agents.filesField.yours')} />
    </fieldset>
  );
}
