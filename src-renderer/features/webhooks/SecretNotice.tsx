import { CopyButton } from '../../components/CopyButton';

/** A signing secret is shown only right after it is made; say so, and offer to copy it. */
export function SecretNotice({ secret, onDone }: { secret: string; onDone(): void }) {
  return (
    <div className="note note-warn stack" role="status">
      <strong>Signing secret: copy it now, it is not shown again.</strong>
      <div className="secret" data-testid="webhook-secret">
        {secret}
      </div>
      <div className="row">
        <CopyButton text={secret} />
        <button type="button" className="btn btn-small" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
