/**
 * The frame of the guest screens: brand panel on the left (desktop), form card on the right;
 * AuthSwitch is the line under a form that links to the other guest screen.
 */
import type { ReactElement, ReactNode } from 'react';
import { Brand } from '../../../components/SiteHeader/Brand.tsx';
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
  return (
    <div className={styles.layout}>
      <aside className={styles.brandPanel}>
        <Brand tone="light" />
        <div>
          <p className={styles.brandTitle}>Banking-grade payments, in your pocket.</p>
          <ul className={styles.brandList}>
            <li>Instant transfers between wallet accounts</li>
            <li>UPI, bank transfer and card deposits</li>
            <li>Scan-to-pay QR codes and money requests</li>
            <li>Every rupee recorded on a double-entry ledger</li>
          </ul>
        </div>
        <p className={styles.brandFoot}>Protected by a transaction PIN on every payment.</p>
      </aside>
      <main className={styles.main} id="main">
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
