/** The Developer screen. */
export const developer = {
  key: 'Key',
  keyHelp: 'Send <code>Authorization: Bearer $AGENT_DESK_KEY</code>. Create a key in <to>Settings → API keys</to> and export it as <code>AGENT_DESK_KEY</code>.',
  reference: 'Reference',
  docs: 'API documentation (/api/docs)',
  openapi: 'OpenAPI document',
  examples: {
    list: 'List agents',
    stream: 'Run an agent and stream the answer (SSE)',
    wait: 'Run and wait for the whole answer',
    read: 'Read a stored response (its id is in the answers above)',
    upload: 'Upload and process a file',
    memory: 'Save a memory',
  },
};
