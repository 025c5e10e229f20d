import fc from 'fast-check';
import {
  brokenJson, contentTypes, jsonSchemaOf, multipartBody, mutatedBody, pathValue, queryValue, workspaceHeader, hostileValue,
} from './arbitraries.js';
import type { OpenApiDoc, Operation } from './openapi-ops.js';

export interface FuzzRequest {
  method: string;
  /** Path and query, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What kind of body was sent, for failure reports. */
  kind: string;
}

const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD';

function fillPath(op: Operation, values: string[]): string {
  let i = 0;
  return op.path.replace(/\{[^}]+\}/g, () => values[i++] ?? '1');
}

interface BodyChoice {
  body?: string | Buffer;
  contentType?: string;
  kind: string;
}

function bodyFor(doc: OpenApiDoc, op: Operation): fc.Arbitrary<BodyChoice> {
  if (!hasBody(op.method)) return fc.constant({ kind: 'none' });
  const json = jsonSchemaOf(op);
  const multipart = Object.keys(op.body).some((t) => t.startsWith('multipart/'));
  const asJson = (schemaBody: fc.Arbitrary<unknown>) =>
    fc.tuple(schemaBody, fc.oneof({ weight: 5, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: contentTypes })).map(
      ([b, ct]): BodyChoice => ({ body: JSON.stringify(b) ?? 'null', contentType: ct || undefined, kind: 'json' }),
    );
  const broken = fc.tuple(brokenJson, contentTypes).map(([b, ct]): BodyChoice => ({ body: b, contentType: ct || undefined, kind: 'broken-json' }));
  const mp = multipartBody.map((m): BodyChoice => ({ body: m.body, contentType: m.contentType, kind: 'multipart' }));
  if (multipart) return fc.oneof({ weight: 6, arbitrary: mp }, { weight: 1, arbitrary: broken }, { weight: 1, arbitrary: asJson(hostileValue) });
  if (json) return fc.oneof({ weight: 6, arbitrary: asJson(mutatedBody(doc, json)) }, { weight: 2, arbitrary: broken }, { weight: 1, arbitrary: mp });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<BodyChoice>({ kind: 'none' }) },
    { weight: 1, arbitrary: broken },
    { weight: 1, arbitrary: asJson(hostileValue) },
  );
}

/** Requests for one operation: its path filled with good and bad ids, hostile query, headers and body. */
export function requestsFor(doc: OpenApiDoc, op: Operation): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((x) => x.in === 'path');
  const queryParams = op.params.filter((x) => x.in === 'query');
  const query = fc.tuple(
    ...queryParams.map((q) => fc.option(queryValue(doc, q.schema, q.name).map((v) => `${encodeURIComponent(q.name)}=${v}`), { freq: 2, nil: undefined })),
  );
  const extraQuery = fc.option(fc.tuple(fc.constantFrom('page', 'per_page', 'q', 'user_id', 'workspace_id', '__proto__', 'x', ''), fc.constantFrom('1', '2', '-1', 'x', '%00')).map(([k, v]) => `${k}=${v}`), {
    freq: 4,
    nil: undefined,
  });
  return fc
    .record({
      path: fc.array(pathValue, { minLength: pathParams.length, maxLength: pathParams.length }),
      query,
      extraQuery,
      workspace: workspaceHeader,
      accept: fc.option(fc.constantFrom('text/event-stream', '*/*', 'application/xml', 'application/json'), { freq: 3, nil: undefined }),
      body: bodyFor(doc, op),
    })
    .map(({ path, query: qs, extraQuery: eq, workspace, accept, body }) => {
      const parts = [...qs, eq].filter((x): x is string => x !== undefined);
      const headers: Record<string, string> = {};
      if (workspace !== undefined) headers['x-workspace-id'] = workspace;
      if (accept) headers.accept = accept;
      if (body.contentType) headers['content-type'] = body.contentType;
      return { method: op.method, url: fillPath(op, path) + (parts.length ? `?${parts.join('&')}` : ''), headers, body: body.body, kind: body.kind };
    });
}

/** Authorization headers that must never let anyone in. */
export const oddAuthorization = fc.oneof(
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'bearer',
    'Basic dGVzdDp0ZXN0',
    'Bearer test-key-012345678',
    'Bearer test-key-0123456789x',
    'Bearer TEST-KEY-0123456789',
    'Bearer  test-key-0123456789 x',
    'Bearer null',
    'Bearer undefined',
    'Token test-key-0123456789',
    'test-key-0123456789',
    'Bearer %00',
    'Bearer ../../',
    `Bearer ${'k'.repeat(600)}`,
    `Bearer ${'k'.repeat(100_000)}`,
    'Bearer ad_',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 80 }).map((s) => `Bearer ${s.replace(/[\r\n\0]/g, '')}`),
);
