import { Trans, useT } from '../i18n';

export function SignedOut() {
  const t = useT();
  return (
    <section className="screen narrow" aria-labelledby="signed-out-title">
      <h1 id="signed-out-title" tabIndex={-1}>
        {t('app.signedOut.title')}
      </h1>
      <p>{t('app.signedOut.noSession')}</p>
      <p>
        <Trans i18nKey="app.signedOut.howToSignIn" components={{ code: <code /> }} />
      </p>
    </section>
  );
}
