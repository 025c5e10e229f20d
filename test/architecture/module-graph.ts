import fs from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

/** Which module folders each module folder imports from (relative imports only, type imports too). */
export function moduleGraph(modulesDir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const mod of fs.readdirSync(modulesDir, { withFileTypes: true })) {
    if (!mod.isDirectory()) continue;
    const edges = new Set<string>();
    graph.set(mod.name, edges);
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(e.name)) {
          for (const m of fs.readFileSync(full, 'utf8').matchAll(IMPORT)) {
            const target = path.relative(modulesDir, path.resolve(dir, m[1]));
            const other = target.split(path.sep)[0];
            if (!target.startsWith('..') && other !== mod.name && target.includes(path.sep)) edges.add(other);
          }
        }
      }
    };
    walk(path.join(modulesDir, mod.name));
  }
  return graph;
}

/** Every cycle as a path `a -> b -> a` (each found once from its first node in sorted order). */
export function findCycles(graph: Map<string, Set<string>>): string[] {
  const cycles = new Set<string>();
  const visit = (start: string, node: string, trail: string[]) => {
    for (const next of graph.get(node) ?? []) {
      if (next === start) cycles.add([...trail, start].join(' -> '));
      else if (!trail.includes(next) && next > start) visit(start, next, [...trail, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) visit(start, start, [start]);
  return [...cycles];
}
