import { lazy, Suspense } from 'react';

// streamdown (and its markdown and highlighting stack) is loaded apart from the initial bundle.
// It is fetched when the person starts writing (or an answer needs it), not at start-up: parsing
// it while the chat loads delayed the composer by about 400 ms.
const load = () => import('./StreamedMarkdown');
const Streamed = lazy(load);

let preloading = false;
/**
 * Starts loading the markdown renderer ahead of the first answer (the composer calls it on focus),
 * once the page is idle: the composer has focus at start, and parsing the renderer then held up
 * the chat's first answers from the platform (the agent, its models) on a busy machine.
 */
export function preloadMarkdown(): void {
  if (preloading) return;
  preloading = true;
  const start = () => void load().catch(() => undefined);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(start, { timeout: 3000 });
  else setTimeout(start, 200);
}

/** Markdown that may still be arriving; plain text is shown until the renderer has loaded. */
export function Markdown({ text, streaming }: { text: string; streaming?: boolean }) {
  return (
    <Suspense fallback={<div className="md md-plain">{text}</div>}>
      <Streamed text={text} streaming={!!streaming} />
    </Suspense>
  );
}
