/**
 * The frame of the guest screens: brand panel on the left (desktop), form card on the right;
 * AuthSwitch is the line under a form that links to the other guest screen. The language
 * switch sits above the card.
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Brand } from '../../../components/SiteHeader/Brand.tsx';
import { LanguageSwitch } from '../../../components/ui/LanguageSwitch.tsx';
import styles from './AuthLayout.module.css';

export function AuthLayout({
  title,
  subtitle,
  children,
  wide = false,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  wide?: boolean;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <div className={styles.layout}>
      <aside className={styles.brandPanel}>
        <Brand tone="light" />
        <div>
          <p className={styles.brandTitle}>{t('auth.brandTitle')}</p>
          <ul className={styles.brandList}>
            <li>{t('auth.brandInstant')}</li>
            <li>{t('auth.brandMethods')}</li>
            <li>{t('auth.brandQr')}</li>
            <li>{t('auth.brandLedger')}</li>
          </ul>
        </div>
        <p className={styles.brandFoot}>{t('auth.brandFoot')}</p>
      </aside>
      <main className={styles.main} id="main">
        <LanguageSwitch className={styles.language} />
        <div className={wide ? `${styles.card} ${styles.cardWide}` : styles.card}>
          <Brand className={styles.cardBrand} />
          <h1 className={styles.title}>{title}</h1>
          <p className={styles.subtitle}>{subtitle}</p>
          {children}
        </div>
      </main>
    </div>
  );
}

export function AuthSwitch({ children }: { children: ReactNode }): ReactElement {
  return <p className={styles.switch}>{children}</p>;
}
