import { ConfirmDialog } from './ConfirmDialog';
import { useConfirmStore } from '../stores/confirm';

/** The one dialog askConfirm opens; mounted once, in the app's frame. */
export function ConfirmHost() {
  const pending = useConfirmStore((s) => s.pending);
  return (
    <ConfirmDialog
      open={!!pending}
      title={pending?.title ?? ''}
      confirmLabel={pending?.confirmLabel ?? 'OK'}
      danger={pending?.danger}
      onCancel={() => pending?.answer(false)}
      onConfirm={() => pending?.answer(true)}
    >
      {typeof pending?.body === 'string' ? <p>{pending.body}</p> : pending?.body}
    </ConfirmDialog>
  );
}
