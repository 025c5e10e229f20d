import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourcesUnder, type Source } from './sources.js';

/**
 * Every safety-net time limit in the tests goes through limit() (test/fixtures/until.ts), so a
 * loaded machine gets room: a number written as a test's, a hook's or a suite's time limit, as an
 * abort deadline or as a deadline from now, is refused. (until()'s own bound is scaled inside it.)
 */
const TAKES_LIMIT = new Set(['it', 'test', 'describe', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach', 'e2eSetup']);

/** The name a call is made through: `it`, `it.skip(...)`, `it.each(rows)(...)`, `test.concurrent(...)`. */
function calleeRoot(e: ts.Expression): string | null {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return calleeRoot(e.expression);
  if (ts.isCallExpression(e)) return calleeRoot(e.expression);
  return null;
}

const isNumber = (e: ts.Expression | undefined): boolean => !!e && (ts.isNumericLiteral(e) || (ts.isBinaryExpression(e) && isNumber(e.left) && isNumber(e.right)));

export function literalLimits(files: Source[]): string[] {
  const found: string[] = [];
  for (const { name, text } of files) {
    const sf = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, name.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const flag = (node: ts.Node) => found.push(`${name}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 60)}`);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const root = calleeRoot(node.expression);
        const last = node.arguments[node.arguments.length - 1];
        // A time limit follows the body: it('name', fn, 30_000), beforeAll(fn, 60_000).
        if (root && TAKES_LIMIT.has(root) && node.arguments.length >= 2 && isNumber(last)) flag(last);
        if (ts.isPropertyAccessExpression(node.expression) && node.expression.getText() === 'AbortSignal.timeout' && isNumber(node.arguments[0])) flag(node.arguments[0]);
      }
      // A deadline written by hand: Date.now() + 10_000.
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken && node.left.getText() === 'Date.now()' && isNumber(node.right)) flag(node.right);
      // { timeout: 5000 } as a test's options, or { timeoutMs: 20_000 } handed to a call.
      if (ts.isPropertyAssignment(node) && /^timeout(Ms)?$/.test(node.name.getText()) && isNumber(node.initializer)) flag(node.initializer);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

/** What sets a limit on purpose, each exactly: the code's own timeouts under test, and tools run to make fixtures. */
const DELIBERATE = [
  // A 1 ms extraction limit is the thing the test proves is enforced.
  /^test\/hostile\/extraction\.test\.ts:\d+: 1$/,
  // Parsing settings: numbers in, numbers out.
  /^test\/webhooks\/signing-schedule\.test\.ts:\d+: 250$/,
  // Fixture generation (LibreOffice, ffmpeg), run by hand, not by the suite.
  /^test\/fixtures\/make-legacy-documents\.ts:\d+: (180_000|120_000)$/,
  // The page reader's own time limit and an MCP connection's back-off, set small: what the tests prove is enforced.
  /^test\/hostile\/pages\.test\.ts:\d+: 300$/,
  /^test\/hostile\/waits\.test\.ts:\d+: 20$/,
  // A DNS responder's client tries once: how long it waits is part of what the fixture answers.
  /^test\/hostile\/support\/dns-responder\.ts:\d+: 2000$/,
];

describe('test time limits scale with the machine (limit())', () => {
  it('finds a planted literal limit on a test, a hook, a suite, each(), an abort deadline and an options object', () => {
    const planted = [
      "it('a', async () => {}, 30_000);",
      "beforeAll(async () => {}, 60_000);",
      "describe('s', () => {}, 1000);",
      "it.each([1])('b %s', async () => {}, 5000);",
      'const s = AbortSignal.timeout(20_000);',
      "it('c', { timeout: 5000 }, async () => {});",
      'await call({ timeoutMs: 20_000 });',
      "const it2 = e2eSetup(async () => {}, 20_000);",
      'const deadline = Date.now() + 10_000;',
    ].join('\n');
    expect(literalLimits([{ name: 'test/planted.test.ts', text: planted }])).toHaveLength(9);
    const scaled = "const end = Date.now() + limit(10_000);\nit('a', async () => {}, limit(30_000));\nbeforeAll(async () => {}, limit(60_000));\nconst s = AbortSignal.timeout(limit(20_000));\nawait until('x', () => true, 90_000);\nsetInterval(() => {}, 1000);\n";
    expect(literalLimits([{ name: 'test/planted.test.ts', text: scaled }])).toEqual([]);
  });

  it('holds for every test file', () => {
    const files = sourcesUnder('test');
    expect(files.length).toBeGreaterThan(150);
    expect(literalLimits(files).filter((l) => !DELIBERATE.some((re) => re.test(l)))).toEqual([]);
  });
});
