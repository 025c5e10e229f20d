import ts from 'typescript';
import { linesWhere, type Source } from './sources.js';

/** Names a module's operations come from: the contract's tables, the renderer's `ops`. */
const OPERATION_MODULE = /(^|\/)contract\/|(^|\/)api(\/operations)?$|^\.\/operations$/;

/** The call a function body is made of, when it is nothing else: `=> f(…)`, `=> await f(…)`, `{ return f(…); }`. */
function onlyCall(body: ts.ConciseBody | undefined): ts.CallExpression | null {
  if (!body) return null;
  let e: ts.Node | undefined = body;
  if (ts.isBlock(body)) {
    if (body.statements.length !== 1) return null;
    const s = body.statements[0]!;
    e = ts.isReturnStatement(s) ? s.expression : ts.isExpressionStatement(s) ? s.expression : undefined;
  }
  while (e && (ts.isParenthesizedExpression(e) || ts.isAwaitExpression(e) || ts.isAsExpression(e))) e = e.expression;
  return e && ts.isCallExpression(e) ? e : null;
}

/**
 * Named functions that only forward to one operation (`get: (id) => api.call(ops.getAgent, …)`,
 * `function getAgent(id) { return call(agentOperations.getAgent, …) }`): a facade that repeats the
 * contract. Inline callbacks (`useLoad(() => api.call(…))`) name nothing and are calls, not facades.
 */
export function facadeMethods(files: Source[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const sf = ts.createSourceFile(f.name, f.text, ts.ScriptTarget.Latest, true, f.name.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const tables = new Set<string>();
    for (const s of sf.statements) {
      if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || !OPERATION_MODULE.test(s.moduleSpecifier.text)) continue;
      const named = s.importClause?.namedBindings;
      if (named && ts.isNamedImports(named)) for (const el of named.elements) tables.add(el.name.text);
    }
    const forwards = (body: ts.ConciseBody | undefined) => {
      const first = onlyCall(body)?.arguments[0];
      return !!first && ts.isPropertyAccessExpression(first) && ts.isIdentifier(first.expression) && tables.has(first.expression.text);
    };
    const report = (node: ts.Node, name: string) => out.push(`${f.name}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${name}`);
    const visit = (node: ts.Node) => {
      if ((ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node)) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
        if (forwards(node.initializer.body)) report(node, node.name.getText(sf));
      } else if ((ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node)) && node.name) {
        if (forwards(node.body)) report(node, node.name.getText(sf));
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** Lines of a store that import a feature. */
export const storesImportingFeatures = (files: Source[]) => linesWhere(files, (name, line) => name.startsWith('src-renderer/stores/') && /^\s*(import|export)\b.*from\s+['"][^'"]*\/features\//.test(line));

/** Lines outside stores/ that take zustand's `create` (a store made there). */
export const storesOutsideStores = (files: Source[]) =>
  linesWhere(files, (name, line) => !name.startsWith('src-renderer/stores/') && /^\s*import\s*\{[^}]*\bcreate(Store)?\b[^}]*\}\s*from\s*['"]zustand['"]/.test(line));
