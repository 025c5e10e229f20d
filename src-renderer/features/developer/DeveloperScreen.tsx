import { useEffect, useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { useAgents } from '../../stores/agents';
import { ScreenLink } from '../../components/ScreenLink';
import { curlExamples } from './examples';
import { Screen } from '../../components/Screen';
import { Trans, useT } from '../../i18n';

/** Where the API is and how to call it; keys are made in Settings → API keys (shown once there). */
export default function DeveloperScreen() {
  const [base, setBase] = useState<string>(location.protocol.startsWith('http') ? location.origin : 'http://127.0.0.1:8787');
  const agents = useAgents((s) => s.agents);
  const t = useT();
  const agentId = agents.find((a) => a.type === 'chat')?.id ?? agents[0]?.id ?? 1;

  useEffect(() => {
    // In Electron the page is not served by the API: ask the bridge where the localhost API listens.
    const bridge = window.agentDesk;
    if (bridge) void bridge.appInfo().then((i) => i.apiUrl && setBase(i.apiUrl)).catch(() => undefined);
  }, []);

  const examples = curlExamples(base, agentId);
  return (
    <Screen id="developer" title={t('app.screens.developer')}>
      <div className="card stack">
        <div className="row">
          <span className="muted">{t('settings.providerForm.baseUrl')}</span>
          <code data-testid="base-url">{base}</code>
          <CopyButton text={base} />
        </div>
        <div className="row">
          <span className="muted">{t('developer.key')}</span>
          <span>
            <Trans
              i18nKey="developer.keyHelp"
              components={{
                code: <code />,
                to: (
                  <ScreenLink screen="settings" sub="keys" />
                ),
              }}
            />
          </span>
        </div>
        <div className="row">
          <span className="muted">{t('developer.reference')}</span>
          <a href={`${base}/api/docs`} target="_blank" rel="noreferrer">
            {t('developer.docs')}
          </a>
          <a href={`${base}/api/openapi.json`} target="_blank" rel="noreferrer">
            {t('developer.openapi')}
          </a>
        </div>
      </div>
      {examples.map((ex) => (
        <section key={ex.id} className="stack" style={{ marginTop: 16 }}>
          <div className="row">
            <h2 className="section-title grow" style={{ margin: 0 }}>
              {t(`developer.examples.${ex.id}`)}
            </h2>
            <CopyButton text={ex.code} />
          </div>
          <pre className="block">{ex.code}</pre>
        </section>
      ))}
    </Screen>
  );
}
