import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { useNav, type ScreenId } from '../stores/nav';

/**
 * A link to a screen of the app (and a place in it): a real link, so it works from the keyboard
 * and opens in a new tab, that the app follows in place. Without `sub`, the screen opens where it was left.
 */
export function ScreenLink({ screen, sub, children, ...rest }: { screen: ScreenId; sub?: string; children?: ReactNode } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'onClick'>) {
  const go = useNav((s) => s.go);
  return (
    <a
      {...rest}
      href={`#/${screen}${sub ? `/${sub}` : ''}`}
      onClick={(e) => {
        e.preventDefault();
        go(screen, sub);
      }}
    >
      {children}
    </a>
  );
}
