import { useEffect, useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { useAgents } from '../../stores/agents';
import { useNav } from '../../stores/nav';
import { curlExamples } from './examples';
import { Screen } from '../../components/Screen';

/** Where the API is and how to call it; keys are made in Settings → API keys (shown once there). */
export default function DeveloperScreen() {
  const [base, setBase] = useState<string>(location.protocol.startsWith('http') ? location.origin : 'http://127.0.0.1:8787');
  const agents = useAgents((s) => s.agents);
  const go = useNav((s) => s.go);
  const agentId = agents.find((a) => a.type === 'chat')?.id ?? agents[0]?.id ?? 1;

  useEffect(() => {
    // In Electron the page is not served by the API: ask the bridge where the localhost API listens.
    const bridge = window.agentDesk;
    if (bridge) void bridge.appInfo().then((i) => i.apiUrl && setBase(i.apiUrl)).catch(() => undefined);
  }, []);

  const examples = curlExamples(base, agentId);
  return (
    <Screen id="developer" title="Developer">
      <div className="card stack">
        <div className="row">
          <span className="muted">Base URL</span>
          <code data-testid="base-url">{base}</code>
          <CopyButton text={base} />
        </div>
        <div className="row">
          <span className="muted">Key</span>
          <span>
            Send <code>Authorization: Bearer $AGENT_DESK_KEY</code>. Create a key in{' '}
            <a
              href="#/settings/keys"
              onClick={(e) => {
                e.preventDefault();
                go('settings', 'keys');
              }}
            >
              Settings → API keys
            </a>{' '}
            and export it as <code>AGENT_DESK_KEY</code>.
          </span>
        </div>
        <div className="row">
          <span className="muted">Reference</span>
          <a href={`${base}/api/docs`} target="_blank" rel="noreferrer">
            API documentation (/api/docs)
          </a>
          <a href={`${base}/api/openapi.json`} target="_blank" rel="noreferrer">
            OpenAPI document
          </a>
        </div>
      </div>
      {examples.map((ex) => (
        <section key={ex.title} className="stack" style={{ marginTop: 16 }}>
          <div className="row">
            <h2 className="section-title grow" style={{ margin: 0 }}>
              {ex.title}
            </h2>
            <CopyButton text={ex.code} />
          </div>
          <pre className="block">{ex.code}</pre>
        </section>
      ))}
    </Screen>
  );
}
