import { useMemo, useState, type ReactNode } from 'react';
import { api, ops, type Answer } from '../../api';
import { useLoad } from '../../components/use-load';
import type { Citations, CitedPassage } from '../../components/citations';
import { FileViewer } from '../files/FileViewer';

type Response = Answer<typeof ops.getAgentResponse>;

/**
 * A finished answer's record does not change: read once, kept for the latest answers (the
 * conversation draws an answer again each time it scrolls back into view). A failed read is not kept.
 */
const finished = new Map<number, Promise<Response>>();
function readFinished(id: number): Promise<Response> {
  let p = finished.get(id);
  if (!p) {
    p = api.call(ops.getAgentResponse, { params: { id } });
    finished.set(id, p);
    p.catch(() => finished.delete(id));
    if (finished.size > 300) finished.delete(finished.keys().next().value!);
  }
  return p;
}

/**
 * The passages a finished answer can cite, from its execution's ext `context` (loaded only when
 * the answer has something like [n]); the file viewer opened on one of them, highlighted.
 */
export function useCitations(responseId: number | null, output: string, live: boolean): { citations: Citations; cited: CitedPassage[]; viewer: ReactNode } {
  const wanted = !live && responseId !== null && /\[\d/.test(output);
  const { data } = useLoad(() => (wanted ? readFinished(responseId) : Promise.resolve(null)), [wanted, responseId, output]);
  const [open, setOpen] = useState<CitedPassage | null>(null);
  const numbered = useMemo(
    () => (data?.context?.passages ?? []).flatMap((p) => (p.n === undefined ? [] : [{ n: p.n, file_id: p.file_id, filename: p.filename, position: p.position, text: p.text, cited: !!p.cited }])),
    [data],
  );
  const citations = useMemo<Citations>(() => ({ byN: new Map(numbered.map((p) => [p.n, p])), open: setOpen }), [numbered]);
  const cited = useMemo(() => numbered.filter((p) => p.cited), [numbered]);
  const viewer = open ? <FileViewer fileId={open.file_id} highlight={open.position ?? null} onClose={() => setOpen(null)} /> : null;
  return { citations, cited, viewer };
}
