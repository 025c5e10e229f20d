import type { ReactNode } from 'react';

/**
 * A screen's frame: a section named by its heading. The h1 takes focus (tabIndex -1) when the
 * screen is opened, so keyboard and screen-reader users start at the new screen's title.
 */
export function Screen({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="screen" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </section>
  );
}
