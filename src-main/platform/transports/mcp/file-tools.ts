import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { errorResult, jsonResult, textResult } from './results.js';
import type { ToolContext } from './tools.js';

export const READ_MAX_PASSAGES = 100;

/** Files: list them, and read a processed file's extracted text. */
export function registerFileTools(server: McpServer, ctx: ToolContext): void {
  const { files, users } = ctx.platform.services;
  const userId = ctx.principal.userId;

  server.registerTool(
    'list_files',
    {
      title: 'List files',
      description: 'Lists the files of a workspace (newest first): id, filename, bytes, status (`completed` files have text to read with read_file).',
      inputSchema: {
        page: z.number().int().min(1).optional().describe('Page number, from 1 (default 1).'),
        per_page: z.number().int().min(1).max(100).optional().describe('Files per page, 1..100 (default 50).'),
        workspace_id: z.number().int().min(1).optional().describe("A workspace you belong to (default: your selected one)."),
      },
      annotations: { readOnlyHint: true },
    },
    async (a: { page?: number; per_page?: number; workspace_id?: number }) => {
      try {
        const ws = users.resolveWorkspace(userId, a.workspace_id === undefined ? undefined : String(a.workspace_id));
        const list = files.list(ws, { page: a.page ?? 1, per_page: a.per_page ?? 50, order: 'desc' });
        return jsonResult({ files: list, page: a.page ?? 1, workspace_id: ws });
      } catch (err) {
        return errorResult(err, ctx.platform.log, 'list_files');
      }
    },
  );

  server.registerTool(
    'read_file',
    {
      title: "Read a file's text",
      description: `Reads the text Agent Desk extracted from a processed file, passage by passage (passages overlap a little at their edges). Up to ${READ_MAX_PASSAGES} passages per call; continue with offset.`,
      inputSchema: {
        file_id: z.number().int().min(1).describe('The file id (see list_files).'),
        offset: z.number().int().min(0).optional().describe('Passages to skip (default 0).'),
        limit: z.number().int().min(1).max(READ_MAX_PASSAGES).optional().describe(`Passages to return, 1..${READ_MAX_PASSAGES} (default 20).`),
      },
      annotations: { readOnlyHint: true },
    },
    async (a: { file_id: number; offset?: number; limit?: number }) => {
      try {
        const offset = a.offset ?? 0;
        const res = files.passages(userId, a.file_id, { offset, limit: a.limit ?? 20 });
        const f = res.file;
        const info = { file: f, total_passages: res.total, offset, passages: res.passages };
        if (f.status !== 'completed') {
          const why = f.status === 'failed' ? `processing failed: ${f.error ?? 'unknown reason'}` : `it is ${f.status}; process it first (POST /api/files/${f.id}/process)`;
          return { isError: true, content: [{ type: 'text', text: `File ${f.id} (${f.filename}) has no text: ${why}.` }], structuredContent: info };
        }
        const end = offset + res.passages.length;
        const head = `${f.filename}: passages ${res.passages.length ? `${offset + 1}-${end}` : 'none'} of ${res.total}${end < res.total ? ` (more: offset ${end})` : ''}`;
        return textResult([head, ...res.passages.map((p) => p.text)].join('\n\n'), info);
      } catch (err) {
        return errorResult(err, ctx.platform.log, 'read_file');
      }
    },
  );
}
