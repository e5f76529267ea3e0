/**
 * The public pages' sticky top bar (landing, docs, architecture): the brand on the left and
 * the page's links and buttons, given as children, in the "Site" navigation on the right.
 */
import type { ReactElement, ReactNode } from 'react';
import { Brand } from './Brand.tsx';
import styles from './SiteHeader.module.css';

export function SiteHeader({ children }: { children: ReactNode }): ReactElement {
  return (
    <header className={styles.landingTop}>
      <Brand />
      <nav className={styles.landingNav} aria-label="Site">
        {children}
      </nav>
    </header>
  );
}
