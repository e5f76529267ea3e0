/**
 * The public pages' sticky top bar (landing, docs, architecture): the brand on the left and
 * the page's links and buttons, given as children, in the "Site" navigation on the right,
 * after the language switch.
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../ui/LanguageSwitch.tsx';
import { Brand } from './Brand.tsx';
import styles from './SiteHeader.module.css';

export function SiteHeader({ children }: { children: ReactNode }): ReactElement {
  const { t } = useTranslation();
  return (
    <header className={styles.landingTop}>
      <Brand />
      <nav className={styles.landingNav} aria-label={t('siteHeader.navigation')}>
        <LanguageSwitch />
        {children}
      </nav>
    </header>
  );
}
