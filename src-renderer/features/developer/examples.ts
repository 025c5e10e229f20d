/** Copyable curl commands for the common calls, filled in with this install's base URL and an agent id. */
export function curlExamples(base: string, agentId: number): { title: string; code: string }[] {
  const auth = `-H "Authorization: Bearer $AGENT_DESK_KEY"`;
  return [
    { title: 'List agents', code: `curl ${auth} ${base}/api/agents` },
    {
      title: 'Run an agent and stream the answer (SSE)',
      code: `curl -N ${auth} -H "Content-Type: application/json" \\\n  -d '{"stream": true, "answers": {"temperature": "0.5"}, "messages": [{"role": "user", "content": "Hello!"}]}' \\\n  ${base}/api/agents/${agentId}/execute`,
    },
    {
      title: 'Run and wait for the whole answer',
      code: `curl ${auth} -H "Content-Type: application/json" \\\n  -d '{"wait_execution": true, "answers": {}, "messages": [{"role": "user", "content": "Hello!"}]}' \\\n  ${base}/api/agents/${agentId}/execute`,
    },
    { title: 'Read a stored response', code: `curl ${auth} ${base}/api/agent-responses/RESPONSE_ID` },
    { title: 'Upload and process a file', code: `curl ${auth} -F "file=@notes.pdf" -F "process=true" ${base}/api/files` },
    { title: 'Save a memory', code: `curl ${auth} -H "Content-Type: application/json" \\\n  -d '{"memory": "I prefer short answers."}' ${base}/api/memories` },
  ];
}
