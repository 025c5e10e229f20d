// The Node the project runs on (package.json engines, with engine-strict for npm install). `npm start`
// and `npm run serve` check it too, so a start on an older Node stops with one sentence, not a crash
// deep inside a native module.
export const MIN_NODE = '22.12.0';

/** Null when `version` is new enough, else the sentence that says what to do. */
export function nodeProblem(version = process.versions.node, what = 'Agent Desk') {
  const [a, b] = version.split('.').map(Number);
  const [ma, mb] = MIN_NODE.split('.').map(Number);
  if (a > ma || (a === ma && b >= mb)) return null;
  return (
    `${what} needs Node ${MIN_NODE} or newer and this is Node ${version}: install Node 24 LTS (nodejs.org), ` +
    'or run `npm install --prefix ~/.node24 node@24` and put ~/.node24/node_modules/.bin first on your PATH.'
  );
}

/** Exits 1 with the sentence on an old Node. */
export function requireSupportedNode(what) {
  const problem = nodeProblem(process.versions.node, what);
  if (!problem) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
