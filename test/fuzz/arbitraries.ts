import fc from 'fast-check';
import { deref, type OpenApiDoc, type Operation, type Schema } from './openapi-ops.js';

/** Strings that have broken parsers, path builders and SQL before. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  'a\u0000b',
  '\uFEFFbom',
  '\u202Eevil\u202C',
  'ℌ𝔢𝔩𝔩𝔬 🧪 漢字 العربية',
  'e\u0301\u0301\u0301',
  "' OR 1=1 --",
  '"; DROP TABLE memories; --',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '__proto__',
  'constructor',
  'file:///etc/passwd',
  'javascript:alert(1)',
  '\\\\?\\C:\\x',
  '\r\n\r\nX-Injected: 1',
] as const;

/** Numbers at the edges of every numeric type a handler might assume. */
export const NASTY_NUMBERS = [0, -0, -1, 1.5, -1.5, 2 ** 31, 2 ** 32 + 1, 2 ** 53, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e308, -1e308, Number.MIN_VALUE, 1e-7] as const;

/** Strings from short to far past every limit (the JSON body limit is 4 MB). */
export const hugeString = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 255, max: 40_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 2, arbitrary: fc.constantFrom(32_000, 32_001, 100_001).map((n) => 'é'.repeat(n)) },
  { weight: 1, arbitrary: fc.constant('z'.repeat(5 * 1024 * 1024)) },
);

export const unicodeString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(...NASTY_STRINGS),
);

/** Any JSON value a confused or hostile client could send in place of the right one. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: unicodeString },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(...NASTY_NUMBERS) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { '': 1 }, ['1'], { $gt: '' }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((n) => nest(n)) },
);

function nest(n: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** URLs a fuzzer may put in a body: loopback only (tests never reach beyond 127.0.0.1), or not http at all. */
const safeUrl = fc.oneof(
  fc.constantFrom('http://127.0.0.1:9/hook', 'https://127.0.0.1:9/x?y=1', 'http://localhost:9/', 'ftp://127.0.0.1/x', 'file:///etc/passwd', 'javascript:alert(1)', 'http://', '//127.0.0.1/', 'http://[::1]:9/', 'http://127.0.0.1:99999/', 'http://user:pw@127.0.0.1:9/'),
  fc.webPath().map((p) => `http://127.0.0.1:9${p}`),
);

/** A value that fits `schema` most of the time (so requests reach the handlers), built from the document. */
export function validish(doc: OpenApiDoc, schema: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  const s = deref(doc, schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => validish(doc, a, name, depth)));
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((t) => validish(doc, { ...s, type: t }, name, depth)));
  const t = types[0] ?? (s.properties ? 'object' : s.items ? 'array' : 'string');
  switch (t) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = s.minimum ?? (/(^|_)ids?$/.test(name) ? 1 : -5);
      return fc.integer({ min, max: Math.min(s.maximum ?? 1000, Math.max(min, 0) + 50) });
    }
    case 'number':
      return fc.double({ min: s.minimum ?? -10, max: s.maximum ?? 10, noNaN: true });
    case 'array': {
      if (depth > 3) return fc.constant([]);
      const maxLength = Math.min(s.maxItems ?? 3, 3);
      if (/(^|_)ids$/.test(name)) return fc.array(fc.integer({ min: 1, max: 8 }), { maxLength });
      return fc.array(validish(doc, s.items, '', depth + 1), { minLength: Math.min(s.minItems ?? 0, maxLength), maxLength });
    }
    case 'object': {
      if (depth > 3 || !s.properties) return fc.constant({});
      const props = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, validish(doc, v, k, depth + 1)]));
      return fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return stringFor(s, name);
  }
}

function stringFor(s: Schema, name: string): fc.Arbitrary<string> {
  if (s.format === 'uri' || s.format === 'url' || name === 'url') return safeUrl;
  if (s.format === 'binary') return fc.string({ maxLength: 64 });
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 60, 60);
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length >= min && x.length <= (s.maxLength ?? Infinity));
    } catch {}
  }
  return fc.string({ unit: 'grapheme', minLength: Math.min(min, max), maxLength: Math.max(max, min) });
}

/** A body for `schema`: valid-ish, or with a wrong type, a missing or an extra field, or not an object at all. */
export function mutatedBody(doc: OpenApiDoc, schema: Schema): fc.Arbitrary<unknown> {
  const base = validish(doc, schema);
  const s = deref(doc, schema);
  const keys = Object.keys(s.properties ?? {});
  return fc.oneof(
    { weight: 3, arbitrary: base },
    {
      weight: 3,
      arbitrary: fc.tuple(base, fc.nat(), hostileValue).map(([b, i, v]) => (isObj(b) && keys.length ? { ...b, [keys[i % keys.length]]: v } : b)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(base, fc.nat()).map(([b, i]) => {
        if (!isObj(b) || !keys.length) return b;
        const copy: Record<string, unknown> = { ...b };
        delete copy[keys[i % keys.length]];
        return copy;
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(base, fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'user_id', 'workspace_id')), hostileValue, { maxKeys: 3 }))
        .map(([b, extra]) => (isObj(b) ? { ...b, ...extra } : b)),
    },
    { weight: 1, arbitrary: hostileValue },
  );
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Bodies that are not JSON, or JSON that parsers choke on. */
export const brokenJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"memory":',
    '[',
    '{"memory": "x",}',
    "{'memory': 'x'}",
    '{"memory": "\\ud800"}',
    '{"memory": "\\u0000"}',
    'nul',
    'true',
    '"just a string"',
    '1e999',
    '{"memory": 1e999, "name": -1e999}',
    '\uFEFF{"memory":"x"}',
    '{"memory":"x"} trailing',
    '{"__proto__":{"polluted":1},"memory":"x","name":"x"}',
    '{"constructor":{"prototype":{"polluted":1}},"name":"y"}',
    '{"memory":"a","memory":"b"}',
    '{"page": 12345678901234567890123456789}',
    'memory=x&collection_id=1',
    '\u0000\u0001\u0002',
  ),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1_000, max: 50_000 }).map((n) => `{"name":"n","memory":"m","x":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`),
  fc.tuple(fc.json(), fc.nat()).map(([j, n]) => j.slice(0, n % Math.max(j.length, 1))),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1')),
);

/** `x-workspace-id` values: absent most of the time, else garbage or a stranger's workspace. */
export const workspaceHeader = fc.option(
  fc.constantFrom('', ' ', 'abc', '-1', '0', '1.0', '1e3', '2', '99999', '999999999999999999999', '1,2', '1 OR 1=1', '0x1', '+1', '1 ', '%31', 'null', '[1]'),
  { freq: 3, nil: undefined },
);

export const contentTypes = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/json; charset=utf-16',
  ';;;',
  '',
);

/** Path parameter values: real small ids, and every kind of id that must name nothing. */
export const pathValue = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 8 }).map(String) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '1.5',
      '1e3',
      '%201',
      '01',
      '0x1',
      '..',
      '..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2f%2e%2e%2f',
      '..%5C..%5C',
      '%00',
      '1%00',
      '1%00.json',
      'null',
      'NaN',
      'Infinity',
      '9'.repeat(400),
      '99999999999999999999',
      '9007199254740993',
      '-9223372036854775809',
      '%EF%BC%91',
      '%E2%80%AE1',
      '%F0%9F%92%A9',
      'a'.repeat(5000),
      '%',
      '%zz',
      '%C0%AE%C0%AE',
      '%FF%FE',
      '1;DROP%20TABLE%20agents',
      '1%20OR%201=1',
      '%0d%0aX-Injected:%201',
      'C:%5Cwindows',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 12 }).map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')) },
);

/** A query value, encoded: the right kind, or garbage. */
export function queryValue(doc: OpenApiDoc, schema: Schema | undefined, name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: validish(doc, schema, name).map((v) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))) },
    { weight: 2, arbitrary: fc.constantFrom('', '-1', '0', '1.5', 'abc', '1e309', '99999999999999999999', '%', '%zz', '%00', '[]', '1&page=2') },
    { weight: 1, arbitrary: hostileValue.map((v) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v) ?? '')) },
  );
}

/** Filenames of uploads: the ones that tried to escape a folder, hide an extension or break a header. */
export const NASTY_FILENAMES = [
  'note.txt',
  'report.PDF',
  '../../../../tmp/agent-desk-escape.txt',
  '..\\..\\escape.txt',
  '/etc/passwd',
  'C:\\Windows\\system.ini',
  '%2e%2e%2fescape.txt',
  'CON.txt',
  '.txt',
  'noext',
  'x.exe',
  'x.txt.exe',
  'x.exe.txt',
  'ünïcødé 漢字.md',
  `${'a'.repeat(5000)}.txt`,
  'a\u0000b.txt',
  'quote".txt',
  '',
];

export interface MultipartBody {
  contentType: string;
  body: Buffer;
}

/** A multipart upload: well formed with a hostile file part, or broken in one of the ways parsers trip on. */
export const multipartBody: fc.Arbitrary<MultipartBody> = fc
  .record({
    boundary: fc.stringMatching(/^[A-Za-z0-9'()+_,\-./:=?]{1,60}$/),
    filename: fc.constantFrom(...NASTY_FILENAMES),
    field: fc.constantFrom('file', 'file', 'files', 'File', ''),
    content: fc.uint8Array({ maxLength: 512 }),
    process: fc.option(fc.constantFrom('true', 'false', '1', 'maybe', ''), { nil: undefined }),
    breakage: fc.constantFrom('none', 'none', 'no-end', 'wrong-boundary', 'no-boundary', 'lf-only', 'no-blank-line', 'empty', 'garbage', 'two-files', 'huge-header'),
  })
  .map(({ boundary, filename, field, content, process, breakage }) => {
    const crlf = breakage === 'lf-only' ? '\n' : '\r\n';
    const fname = filename.replace(/"/g, '%22');
    const parts: Buffer[] = [];
    const filePart = (name: string) => {
      const head = `--${boundary}${crlf}Content-Disposition: form-data; name="${field}"; filename="${name}"${crlf}Content-Type: application/octet-stream${crlf}`;
      const extra = breakage === 'huge-header' ? `X-Pad: ${'p'.repeat(200_000)}${crlf}` : '';
      parts.push(Buffer.from(head + extra + (breakage === 'no-blank-line' ? '' : crlf)), Buffer.from(content), Buffer.from(crlf));
    };
    filePart(fname);
    if (breakage === 'two-files') filePart('second.txt');
    if (process !== undefined) parts.push(Buffer.from(`--${boundary}${crlf}Content-Disposition: form-data; name="process"${crlf}${crlf}${process}${crlf}`));
    if (breakage !== 'no-end') parts.push(Buffer.from(`--${boundary}--${crlf}`));
    let body = Buffer.concat(parts);
    if (breakage === 'empty') body = Buffer.alloc(0);
    if (breakage === 'garbage') body = Buffer.from(content);
    const header = breakage === 'no-boundary' ? 'multipart/form-data' : `multipart/form-data; boundary=${breakage === 'wrong-boundary' ? `${boundary}x` : boundary}`;
    return { contentType: header, body };
  });

/** Request methods, for sending the wrong one to a path. */
export const anyMethod = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');

/** Operations whose body is JSON, and the schema of that body. */
export function jsonSchemaOf(op: Operation): Schema | null {
  const entry = Object.entries(op.body).find(([t]) => /json/.test(t));
  return entry ? entry[1] : null;
}
