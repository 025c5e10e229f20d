import { useId, useRef } from 'react';
import { SCREENS } from '../stores/nav';
import { MOD, useShortcutsSheet } from '../stores/shortcuts';
import { useModalDialog } from './use-modal';
import { useT } from '../i18n';

/** The app's keyboard shortcuts in one sheet, as chat apps list theirs. */
export function ShortcutsSheet() {
  const { open, setOpen } = useShortcutsSheet();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const t = useT();
  useModalDialog(ref, open);
  const rows: [string, string][] = [
    [`${MOD}+Shift+O`, t('chat.shortcuts.newChat')],
    [`${MOD}+F`, t('chat.shortcuts.find')],
    ['Enter', t('chat.shortcuts.send')],
    ['Shift+Enter', t('chat.shortcuts.newLine')],
    ['↑', t('chat.shortcuts.editLast')],
    ['Esc', t('chat.shortcuts.esc')],
    ['/', t('chat.shortcuts.search')],
    [t('chat.shortcuts.sheetKeys', { mod: MOD }), t('chat.shortcuts.sheet')],
  ];
  return (
    <dialog ref={ref} className="dialog shortcuts-sheet" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), setOpen(false))} data-testid="shortcuts-sheet">
      {open ? (
        <>
          <h2 id={titleId}>{t('chat.shortcuts.title')}</h2>
          <div className="dialog-body">
            <table className="shortcuts-table">
              <tbody>
                {rows.map(([keys, what]) => (
                  <tr key={keys}>
                    <th scope="row">
                      <kbd>{keys}</kbd>
                    </th>
                    <td>{what}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <h3>{t('chat.shortcuts.screens')}</h3>
            <p className="muted small">{t('chat.shortcuts.screensHint')}</p>
            <table className="shortcuts-table">
              <tbody>
                {SCREENS.map((s) => (
                  <tr key={s.id}>
                    <th scope="row">
                      <kbd>g {s.key}</kbd>
                    </th>
                    <td>{t(`app.screens.${s.id}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="dialog-actions">
            <button type="button" className="btn btn-primary" onClick={() => setOpen(false)} autoFocus>
              {t('chat.shortcuts.close')}
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
