/** Each example's title is developer.examples.<id>. */
export type ExampleId = 'list' | 'stream' | 'wait' | 'read' | 'upload' | 'memory';

/**
 * Copyable curl commands for the common calls, filled in with this install's base URL and an
 * agent id. They work as pasted (a test runs each against `serve`): answers left out take their
 * defaults (the default model, a select's first option), so no value here can fall outside an
 * agent's options; the upload makes its own small file first.
 */
export function curlExamples(base: string, agentId: number): { id: ExampleId; code: string }[] {
  const auth = `-H "Authorization: Bearer $AGENT_DESK_KEY"`;
  const json = '-H "Content-Type: application/json"';
  return [
    { id: 'list', code: `curl ${auth} ${base}/api/agents` },
    {
      id: 'stream',
      code: `curl -N ${auth} ${json} \\\n  -d '{"stream": true, "messages": [{"role": "user", "content": "Hello!"}]}' \\\n  ${base}/api/agents/${agentId}/execute`,
    },
    {
      id: 'wait',
      code: `curl ${auth} ${json} \\\n  -d '{"wait_execution": true, "messages": [{"role": "user", "content": "Hello!"}]}' \\\n  ${base}/api/agents/${agentId}/execute`,
    },
    { id: 'read', code: `curl ${auth} ${base}/api/agent-responses/RESPONSE_ID` },
    { id: 'upload', code: `echo "Notes for Agent Desk" > notes.txt\ncurl ${auth} -F "file=@notes.txt" -F "process=true" ${base}/api/files` },
    { id: 'memory', code: `curl ${auth} ${json} \\\n  -d '{"memory": "I prefer short answers."}' ${base}/api/memories` },
  ];
}
