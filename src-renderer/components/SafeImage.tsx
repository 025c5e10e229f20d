import type { ImgHTMLAttributes } from 'react';
import { useT } from '../i18n';

/**
 * Images in model output load only from the app itself or inline data: an external <img>
 * (markdown or raw HTML) would tell a third party that, and when, the answer was read, and could
 * carry conversation text in its URL. It is shown as a note with its alt text instead.
 */
export function isInlineImage(src: unknown): src is string {
  if (typeof src !== 'string') return false;
  if (/^data:image\/(png|jpe?g|gif|webp);/i.test(src) || src.startsWith('blob:')) return true;
  try {
    return new URL(src, location.href).origin === location.origin && !/^\/\//.test(src);
  } catch {
    return false;
  }
}

export function SafeImage({ src, alt, node: _node, ...rest }: ImgHTMLAttributes<HTMLImageElement> & { node?: unknown }) {
  const t = useT();
  if (!isInlineImage(src)) {
    return (
      <span className="md-blocked" data-testid="blocked-image" title={t('components.image.blockedTitle')}>
        {alt ? t('components.image.blockedWithAlt', { alt }) : t('components.image.blocked')}
      </span>
    );
  }
  return <img src={src} alt={alt ?? ''} {...rest} />;
}
