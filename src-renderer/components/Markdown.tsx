import { lazy, Suspense } from 'react';

// streamdown (and its markdown and highlighting stack) is loaded apart from the initial bundle,
// but fetched as soon as the app is idle, so the first answer renders as markdown, not raw text.
const load = () => import('./StreamedMarkdown');
const Streamed = lazy(load);
if (typeof window !== 'undefined') {
  const preload = () => void load().catch(() => undefined);
  if ('requestIdleCallback' in window) window.requestIdleCallback(preload, { timeout: 2000 });
  else setTimeout(preload, 500);
}

/** Markdown that may still be arriving; plain text is shown until the renderer has loaded. */
export function Markdown({ text, streaming }: { text: string; streaming?: boolean }) {
  return (
    <Suspense fallback={<div className="md md-plain">{text}</div>}>
      <Streamed text={text} streaming={!!streaming} />
    </Suspense>
  );
}
