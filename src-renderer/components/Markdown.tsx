import { lazy, Suspense } from 'react';

// streamdown (and its markdown and highlighting stack) is loaded apart from the initial bundle.
// It is fetched when the person starts writing (or an answer needs it), not at start-up: parsing
// it while the chat loads delayed the composer by about 400 ms.
const load = () => import('./StreamedMarkdown');
const Streamed = lazy(load);

/** Starts loading the markdown renderer ahead of the first answer (the composer calls it on focus). */
export function preloadMarkdown(): void {
  void load().catch(() => undefined);
}

/** Markdown that may still be arriving; plain text is shown until the renderer has loaded. */
export function Markdown({ text, streaming }: { text: string; streaming?: boolean }) {
  return (
    <Suspense fallback={<div className="md md-plain">{text}</div>}>
      <Streamed text={text} streaming={!!streaming} />
    </Suspense>
  );
}
