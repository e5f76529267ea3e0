/**
 * The public pages' sticky top bar (landing, docs, architecture): the brand on the left and
 * the page's links and buttons, given as children, in the "Site" navigation on the right.
 */
import type { ReactElement, ReactNode } from 'react';
import { Brand } from './Brand.tsx';

export function SiteHeader({ children }: { children: ReactNode }): ReactElement {
  return (
    <header className="landing-top">
      <Brand />
      <nav className="landing-nav" aria-label="Site">
        {children}
      </nav>
    </header>
  );
}
