// The startup bench's 1,000 mixed requests, for any transport: per round, the lists, a memory
// created, updated and (every other round) deleted, an execution every other round, then more
// lists. Plain JavaScript: the bench part (tsx) and the desktop driver (plain Node) share it.

/**
 * @param {(path: string, method?: string, body?: unknown) => Promise<{ status: number; json: any }>} req
 * @param {number} total
 */
export async function mixedRequests(req, total) {
  let sent = 0;
  let errors = 0;
  let executions = 0;
  const check = async (p, method, body) => {
    sent++;
    const r = await req(p, method, body);
    if (r.status !== 200) errors++;
    return r.json;
  };
  const lists = ['/api/agents', '/api/memories?per_page=20', '/api/memory-collections', '/api/files', '/api/agents?q=chat', '/api/webhooks'];
  for (let round = 0; sent < total; round++) {
    await Promise.all(lists.map((p) => check(p)));
    const made = await check('/api/memories', 'POST', { memory: `bench memory ${round} ${'m'.repeat(round % 200)}` });
    if (made?.memory?.id) {
      await check(`/api/memories/${made.memory.id}`, 'PATCH', { memory: `updated ${round}` });
      if (round % 2) await check(`/api/memories/${made.memory.id}`, 'DELETE');
    }
    if (round % 2 === 0) {
      executions++;
      await check('/api/agents/1/execute', 'POST', { model: 'gpt-4o-mini', tools: 'no-tools', messages: [{ role: 'user', content: `bench ${round}` }] });
    }
    for (let i = 0; i < 40 && sent < total; i += 8) await Promise.all(lists.concat(['/api/agents/1', '/api/memories']).map((p) => check(p)));
  }
  return { errors, executions };
}
