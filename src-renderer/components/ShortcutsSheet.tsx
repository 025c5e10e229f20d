import { useId, useRef } from 'react';
import { SCREENS } from '../stores/nav';
import { MOD, useShortcutsSheet } from '../stores/shortcuts';
import { useModalDialog } from './use-modal';

/** The app's keyboard shortcuts in one sheet, as chat apps list theirs. */
export function ShortcutsSheet() {
  const { open, setOpen } = useShortcutsSheet();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useModalDialog(ref, open);
  const rows: [string, string][] = [
    [`${MOD}+Shift+O`, 'New chat'],
    [`${MOD}+F`, 'Find in this conversation'],
    ['Enter', 'Send the message'],
    ['Shift+Enter', 'New line in the message'],
    ['↑', 'Edit your last message (in an empty message box)'],
    ['Esc', 'Stop the answer, or leave the message box'],
    ['/', "Search this screen's list"],
    ['? or Ctrl+/', 'Show these shortcuts'],
  ];
  return (
    <dialog ref={ref} className="dialog shortcuts-sheet" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), setOpen(false))} data-testid="shortcuts-sheet">
      {open ? (
        <>
          <h2 id={titleId}>Keyboard shortcuts</h2>
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
            <h3>Go to a screen</h3>
            <p className="muted small">Press g, then the screen's letter (outside a text box).</p>
            <table className="shortcuts-table">
              <tbody>
                {SCREENS.map((s) => (
                  <tr key={s.id}>
                    <th scope="row">
                      <kbd>g {s.key}</kbd>
                    </th>
                    <td>{s.label}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="dialog-actions">
            <button type="button" className="btn btn-primary" onClick={() => setOpen(false)} autoFocus>
              Close
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
