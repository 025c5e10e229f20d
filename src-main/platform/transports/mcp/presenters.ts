import { fileOperations } from '../../contract/files.js';
import type { FileDetail } from '../../contract/files.js';
import type { Execution } from '../../contract/executions.js';
import { request, type Presenter } from './operation-tools.js';
import { failureResult } from './results.js';

/**
 * How some generated tools show their answer to a model: the text it reads first. The structured
 * content stays the operation's answer; what the tool takes and how it is checked stay the
 * operation's. A presenter may read another operation, through the same request path.
 */
export const presenters: Readonly<Record<string, Presenter>> = {
  /** The passages as text under a line saying where they are in the file; a file without text is an error that says why. */
  async read_file(answer, args, ctx, signal) {
    const page = answer as unknown as { total: number; offset: number; passages: { text: string }[] };
    const got = await request(ctx, 'getFile', fileOperations.getFile, { fileId: args.file_id }, signal);
    if (got.status >= 400) return failureResult(got);
    const f = got.body as FileDetail;
    if (f.status !== 'completed') {
      const why = f.status === 'failed' ? `processing failed: ${f.error ?? 'unknown reason'}` : `it is ${f.status}; process it first (POST /api/files/${f.id}/process)`;
      return { isError: true, content: [{ type: 'text', text: `File ${f.id} (${f.filename}) has no text: ${why}.` }], structuredContent: answer };
    }
    const end = page.offset + page.passages.length;
    const head = `${f.filename}: passages ${page.passages.length ? `${page.offset + 1}-${end}` : 'none'} of ${page.total}${end < page.total ? ` (more: offset ${end})` : ''}`;
    return { content: [{ type: 'text', text: [head, ...page.passages.map((p) => p.text)].join('\n\n') }], structuredContent: answer };
  },
  /** The output is what a model wants to read; the whole execution is the structured content. */
  async get_agent_response(answer) {
    const e = answer as unknown as Pick<Execution, 'output' | 'status'>;
    return { content: [{ type: 'text', text: e.output || `(no output yet; status ${e.status})` }], structuredContent: answer };
  },
};
