/**
 * Finds words a person reads that are written in renderer code instead of the catalogs: JSX text,
 * the attributes people read (title, aria-label, placeholder, alt, label...), strings a JSX
 * expression shows, toasts, confirm dialogs and errors the app words. A call's arguments are not
 * looked into (so `t('settings.title')` is a key, not a literal).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const RENDERER = path.resolve(import.meta.dirname, '../../../src-renderer');

/** Attributes (and component props) whose text a person reads or hears. */
const READ_ATTRS = new Set([
  'title', 'aria-label', 'aria-description', 'aria-placeholder', 'aria-valuetext', 'aria-roledescription', 'placeholder', 'alt', 'label',
  'confirmLabel', 'what', 'hint', 'description', 'message', 'heading', 'text', 'emptyText', 'empty', 'tooltip', 'caption', 'summary', 'help', 'columns',
]);
/** Object properties that end up on screen (nav items, confirm requests, option lists, notices). */
const READ_PROPS = new Set(['label', 'title', 'confirmLabel', 'description', 'hint', 'placeholder', 'message', 'help', 'note', 'summary', 'heading', 'tooltip', 'ariaLabel', 'emptyText', 'hidden']);
/** Calls that put their text in front of a person. */
const SHOWING_CALLS = new Set(['toast', 'show', 'alert', 'confirm', 'prompt', 'setError', 'setMessage', 'setNotice', 'showError']);
const ERROR_CLASSES = new Set(['Error', 'ApiError', 'TypeError', 'RangeError']);
/** Text inside these is code or keys the person types, not words. */
const CODE_TAGS = new Set(['code', 'kbd', 'pre', 'samp']);
/** Names, the same in every language, and examples of code with spaces in them. */
export const NAMES = new Set([
  'Agent Desk', 'OpenAI', 'Anthropic', 'Ollama', 'LM Studio', 'GGUF', 'MCP', 'OCR', 'API', 'JSON', 'URL', 'Brave', 'SearXNG', 'Tesseract',
  'Electron', 'CUDA', 'Vulkan', 'Metal', 'CPU', 'GPU', 'English', 'Português (Brasil)', 'OK', 'Authorization: Bearer …',
]);

export interface Finding {
  file: string;
  line: number;
  text: string;
  where: string;
}

/**
 * Words a person reads, not code: without a space only a word itself is one ("Save", "revoked",
 * "Loading…"), where `API_TOKEN=…`, a URL or a path are code, and so is a lone lowercase word
 * given as a placeholder (an example command: `npx`); with spaces, any text with a word in it
 * but a URL or JSON.
 */
export function hasWords(s: string, where = ''): boolean {
  const v = s.replace(/\s+/g, ' ').trim();
  if (!/\p{L}{2,}/u.test(v) || NAMES.has(v)) return false;
  const word = (w: string) => /^\p{L}[\p{L}'’-]*[.!?…:,]?$/u.test(w) && !(where === 'placeholder=' && /^[a-z][a-z0-9_-]*…?$/.test(w));
  // Lines without spaces (arguments one per line): words only if a line is a word.
  if (!s.includes(' ')) return s.split(/\s+/).some((w) => w && word(w));
  return !/^[a-z][\w+.-]*:\/\//i.test(v) && !/^[{[]/.test(v);
}

/** The literal text an expression shows directly (through ?:, &&, ||, ??, + and templates), not through calls. */
function shownLiterals(e: ts.Node | undefined, out: ts.Node[] = []): ts.Node[] {
  if (!e) return out;
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) out.push(e);
  else if (ts.isTemplateExpression(e)) out.push(e);
  else if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e)) shownLiterals(e.expression, out);
  else if (ts.isConditionalExpression(e)) {
    shownLiterals(e.whenTrue, out);
    shownLiterals(e.whenFalse, out);
  } else if (ts.isBinaryExpression(e) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.PlusToken].includes(e.operatorToken.kind)) {
    shownLiterals(e.left, out);
    shownLiterals(e.right, out);
  } else if (ts.isJsxExpression(e)) shownLiterals(e.expression, out);
  else if (ts.isArrayLiteralExpression(e)) for (const el of e.elements) shownLiterals(el, out);
  return out;
}

const literalText = (n: ts.Node): string => {
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
  if (ts.isTemplateExpression(n)) return [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(' ');
  return '';
};

const tagName = (n: ts.JsxElement | ts.JsxSelfClosingElement) => (ts.isJsxElement(n) ? n.openingElement.tagName : n.tagName).getText();

function insideCode(n: ts.Node): boolean {
  for (let p = n.parent; p; p = p.parent) {
    if (ts.isJsxElement(p) && CODE_TAGS.has(tagName(p))) return true;
  }
  return false;
}

const calleeName = (e: ts.Expression): string => (ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : '');
const propName = (n: ts.PropertyName): string => (ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : '');

export function scanSource(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Finding[] = [];
  const report = (n: ts.Node, text: string, where: string) => {
    if (!hasWords(text, where) || insideCode(n)) return;
    found.push({ file, line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, text: text.replace(/\s+/g, ' ').trim().slice(0, 80), where });
  };
  const visit = (n: ts.Node) => {
    if (ts.isJsxText(n)) report(n, n.text, 'JSX text');
    else if (ts.isJsxExpression(n) && (ts.isJsxElement(n.parent) || ts.isJsxFragment(n.parent))) {
      for (const l of shownLiterals(n.expression)) report(l, literalText(l), 'JSX expression');
    } else if (ts.isJsxAttribute(n) && READ_ATTRS.has(n.name.getText(sf))) {
      for (const l of shownLiterals(n.initializer)) report(l, literalText(l), `${n.name.getText(sf)}=`);
    } else if (ts.isPropertyAssignment(n) && READ_PROPS.has(propName(n.name)) && ts.isObjectLiteralExpression(n.parent)) {
      for (const l of shownLiterals(n.initializer)) report(l, literalText(l), `${propName(n.name)}:`);
    } else if (ts.isCallExpression(n) && SHOWING_CALLS.has(calleeName(n.expression))) {
      // The first argument is the text (a toast's second is its kind).
      for (const l of shownLiterals(n.arguments[0])) report(l, literalText(l), `${calleeName(n.expression)}()`);
    } else if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && ERROR_CLASSES.has(n.expression.text)) {
      for (const a of n.arguments ?? []) for (const l of shownLiterals(a)) report(l, literalText(l), `new ${n.expression.text}()`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** Every renderer source file the check reads (the catalogs themselves excepted), relative to src-renderer. */
export function rendererFiles(dir = RENDERER, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (r !== 'i18n' && r !== 'public') out.push(...rendererFiles(dir, r));
    } else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(r);
  }
  return out.sort();
}

export function scanRenderer(): Finding[] {
  return rendererFiles().flatMap((f) => scanSource(f, fs.readFileSync(path.join(RENDERER, f), 'utf8')));
}

/** The not-yet-converted files (shrinking to empty): one path per line, `#` starts a comment (the owner). */
export function unconverted(): string[] {
  const text = fs.readFileSync(path.join(import.meta.dirname, 'unconverted.txt'), 'utf8');
  return text
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
}
