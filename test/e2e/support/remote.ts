import { startServe, type ServeProcess } from './server';

export interface RemotePlatform {
  serve: ServeProcess;
  /** The key the remote accepts (AGENT_DESK_API_KEY), what a user types in Settings → Remote. */
  key: string;
  /** A chat agent that exists only on the remote, so the local lists can tell it apart. */
  agent: { id: number; title: string };
  /** An authenticated JSON call to the remote's API. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
}

/**
 * A second `serve` playing "the remote platform": its own data dir and key, its model the fake
 * provider at `modelUrl`, and one agent of its own (a copy of its seeded chat agent, renamed).
 */
export async function startRemotePlatform(modelUrl: string, opts: { key?: string; agentTitle?: string } = {}): Promise<RemotePlatform> {
  const key = opts.key ?? `remote-e2e-${Math.random().toString(36).slice(2)}-key`;
  const started = await startServe({ AGENT_DESK_API_KEY: key, AGENT_DESK_OPENAI_BASE_URL: modelUrl, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' });
  // Tests stop the remote mid-suite ("it went offline") and again in afterAll: the second close
  // must not wait for an exit that already happened.
  let closing: Promise<void> | null = null;
  const serve: ServeProcess = { ...started, close: () => (closing ??= started.close()) };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(serve.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  try {
    const chats = await call('GET', '/api/agents?type=chat&per_page=100');
    const base = (chats.json?.data as any[] | undefined)?.find((a) => a.questions.some((q: any) => q.name === 'model'));
    if (!base) throw new Error(`The remote has no seeded chat agent with a model question: ${JSON.stringify(chats)}`);
    const title = opts.agentTitle ?? 'Team researcher';
    const made = await call('POST', '/api/agents', { title, type: 'chat', description: 'Lives on the remote platform.', instructions: 'Answer as the team researcher.', questions: base.questions });
    if (made.status !== 201 && made.status !== 200) throw new Error(`Creating the remote agent failed: ${made.status} ${JSON.stringify(made.json)}`);
    return { serve, key, agent: { id: made.json.id, title }, call };
  } catch (err) {
    await serve.close();
    throw err;
  }
}
