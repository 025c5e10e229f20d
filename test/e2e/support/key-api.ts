/** serve's HTTP API called with a bearer key, as a script would, for suites that set data up outside the page. */
export type KeyApi = (method: string, path: string, body?: FormData | object) => Promise<any>;

/** A caller of `baseUrl` with `key`; an answer that is not 2xx throws with its status and body. */
export function keyApi(baseUrl: string, key: string): KeyApi {
  return async (method, path, body) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    const init: RequestInit = { method, headers };
    if (body instanceof FormData) init.body = body;
    else if (body) {
      init.body = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${baseUrl}${path}`, init);
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
}

/**
 * Uploads each text as a processed file and links them all to agent `agentId` (the chat agent by
 * default); returns the file ids in the order given. A file that does not complete processing throws.
 */
export async function linkTextFiles(api: KeyApi, files: { name: string; text: string }[], agentId = 1): Promise<number[]> {
  const ids: number[] = [];
  for (const { name, text } of files) {
    const form = new FormData();
    form.append('file', new Blob([text]), name);
    form.append('process', 'true');
    const f = await api('POST', '/api/files', form);
    if (f.status !== 'completed') throw new Error(`${name} ended ${f.status}`);
    ids.push(Number(f.id));
  }
  await api('POST', `/api/agents/${agentId}/files`, { file_ids: ids });
  return ids;
}
