import type { ReactNode } from 'react';
import { useDropzone } from 'react-dropzone';
import { useNav } from '../stores/nav';
import { useAttachments } from '../stores/attachments';
import { useFiles } from '../stores/files';
import { useT } from '../i18n';

/** Files dropped anywhere: attached to the message on the chat screen, uploaded to Files elsewhere. */
export function GlobalDrop({ children }: { children: ReactNode }) {
  const onDrop = (files: File[]) => {
    if (!files.length) return;
    if (useNav.getState().screen === 'chat') void useAttachments.getState().attach(files);
    else {
      if (useNav.getState().screen !== 'files') useNav.getState().go('files');
      void useFiles.getState().upload(files);
    }
  };
  const { getRootProps, isDragActive } = useDropzone({ onDrop, noClick: true, noKeyboard: true, multiple: true });
  const screen = useNav((s) => s.screen);
  const t = useT();
  return (
    <div {...getRootProps({ className: 'drop-root' })} data-testid="drop-root">
      {children}
      {isDragActive ? (
        <div className="drop-overlay" aria-hidden="true">
          <div>{screen === 'chat' ? t('components.drop.attach') : t('components.drop.upload')}</div>
        </div>
      ) : null}
    </div>
  );
}
