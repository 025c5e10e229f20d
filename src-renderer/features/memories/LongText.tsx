import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useT } from '../../i18n';

/**
 * Text that may be long (a memory of 2,000 characters): shown to a few lines with "Show more",
 * the whole of it after. The button appears only when the text is cut, measured as laid out, so
 * a short text at any width has none.
 */
export function LongText({ text, className }: { text: string; className?: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [cut, setCut] = useState(false);
  const ref = useRef<HTMLParagraphElement>(null);
  const id = useId();
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || open) return;
    const measure = () => setCut(el.scrollHeight > el.clientHeight + 1);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [text, open]);
  return (
    <>
      <p id={id} ref={ref} className={`${className ?? ''} ${open ? '' : 'text-clamped'}`.trim()} data-testid="long-text" data-open={open ? 'true' : 'false'}>
        {text}
      </p>
      {cut || open ? (
        <button type="button" className="btn-link small" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
          {open ? t('memories.showLess') : t('memories.showMore')}
        </button>
      ) : null}
    </>
  );
}
