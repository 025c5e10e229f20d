import { lazy, Suspense } from 'react';

// streamdown (and its markdown stack) is loaded on first use to keep the initial bundle small.
const Streamed = lazy(() => import('./StreamedMarkdown'));

/** Markdown that may still be arriving; plain text is shown until the renderer has loaded. */
export function Markdown({ text, streaming }: { text: string; streaming?: boolean }) {
  return (
    <Suspense fallback={<div className="md md-plain">{text}</div>}>
      <Streamed text={text} streaming={!!streaming} />
    </Suspense>
  );
}
