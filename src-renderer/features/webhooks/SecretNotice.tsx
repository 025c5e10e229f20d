import { useEffect, useRef } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { useT } from '../../i18n';

/**
 * A signing secret is shown only right after it is made; say so, and offer to copy it. Focus
 * moves here when it appears (after Connect or Rotate): it is what the person must act on now.
 */
export function SecretNotice({ secret, onDone }: { secret: string; onDone(): void }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, [secret]);
  return (
    <div className="note note-warn stack" role="status" tabIndex={-1} ref={box} aria-labelledby="webhook-secret-heading" data-testid="secret-notice">
      <strong id="webhook-secret-heading">{t('webhooks.secret.heading')}</strong>
      <span className="small">{t('webhooks.secret.help')}</span>
      <div className="secret" data-testid="webhook-secret">
        {secret}
      </div>
      <div className="row">
        <CopyButton text={secret} />
        <button type="button" className="btn btn-small" onClick={onDone}>
          {t('webhooks.secret.done')}
        </button>
      </div>
    </div>
  );
}
