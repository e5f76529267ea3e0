/**
 * The Privacy Policy (/privacy) and Terms of Service (/terms), written for this product (issue
 * 41 item 5): what it stores, for how long and who sees it, and the rules it enforces. Each
 * figure is the code's own (idempotency keys 7 days, sign-ins 12 or 24 hours, codes 15 or 10
 * minutes, rate-limit windows 15 minutes, the audit trail kept): change the text with the code.
 * A section's text is one translation, one paragraph a line.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { SiteHeader } from '../../../components/SiteHeader/SiteHeader.tsx';
import type { Messages } from '../../../i18n/resources/en.ts';
import styles from './LegalPage.module.css';

type LegalKey = keyof Messages['legal'];

interface Section {
  /** The anchor (the footer's "Cookies and storage" links to #device). */
  id: string;
  title: LegalKey;
  text: LegalKey;
}

export interface LegalDocument {
  title: LegalKey;
  intro: LegalKey;
  sections: readonly Section[];
}

export const PRIVACY: LegalDocument = {
  title: 'privacyTitle',
  intro: 'privacyIntro',
  sections: [
    { id: 'stores', title: 'storesTitle', text: 'storesText' },
    { id: 'keep', title: 'keepTitle', text: 'keepText' },
    { id: 'who', title: 'whoTitle', text: 'whoText' },
    { id: 'device', title: 'deviceTitle', text: 'deviceText' },
    { id: 'logs', title: 'logsTitle', text: 'logsText' },
  ],
};

export const TERMS: LegalDocument = {
  title: 'termsTitle',
  intro: 'termsIntro',
  sections: [
    { id: 'account', title: 'accountTitle', text: 'accountText' },
    { id: 'money', title: 'moneyTitle', text: 'moneyText' },
    { id: 'pin', title: 'pinTitle', text: 'pinText' },
    { id: 'corrections', title: 'correctionsTitle', text: 'correctionsText' },
    { id: 'service', title: 'serviceTitle', text: 'serviceText' },
  ],
};

export function LegalPage({ document }: { document: LegalDocument }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="docs">
      <SiteHeader>
        <Link to="/docs" className="btn btn-ghost btn-md hide-sm">
          {t('publicPages.docs')}
        </Link>
        <Link to="/login" className="btn btn-primary btn-md">
          {t('publicPages.signIn')}
        </Link>
      </SiteHeader>
      <main id="main" className={styles.legal}>
        <h1 className="page-title">{t(`legal.${document.title}`)}</h1>
        <p className="section-text">{t(`legal.${document.intro}`)}</p>
        <p className="small muted">{t('legal.updated')}</p>
        {document.sections.map((section) => (
          <section key={section.id} id={section.id} className={styles.section} aria-labelledby={`${section.id}-title`}>
            <h2 id={`${section.id}-title`}>{t(`legal.${section.title}`)}</h2>
            {t(`legal.${section.text}`)
              .split('\n')
              .map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
          </section>
        ))}
        <p className={styles.back}>
          <Link to="/">{t('legal.back')}</Link>
        </p>
      </main>
    </div>
  );
}
