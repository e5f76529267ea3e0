/**
 * The landing page's footer: brand, link columns and the legal line. Every link goes somewhere
 * real (issue 41): a page of this app or a section of this page. The spec's placeholders -
 * company pages, social icons, a support phone number and address - are gone, not pointed at
 * `#` (decision 0012).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Brand } from '../../../components/SiteHeader/Brand.tsx';
import type { Messages } from '../../../i18n/resources/en.ts';
import styles from './Landing.module.css';

type LandingKey = keyof Messages['landing'];

/** `to`: a route of the app; `href`: a section of this page. */
type FooterLink = { label: LandingKey } & ({ to: string } | { href: `#${string}` });

const FOOTER_COLUMNS: { title: LandingKey; links: FooterLink[] }[] = [
  {
    title: 'productColumn',
    links: [
      { label: 'features', href: '#features' },
      { label: 'security', to: '/docs#security' },
      { label: 'architecture', to: '/architecture' },
    ],
  },
  {
    title: 'helpColumn',
    links: [
      { label: 'help', to: '/docs' },
      { label: 'privacy', to: '/privacy' },
      { label: 'terms', to: '/terms' },
    ],
  },
];

function FooterAnchor({ link }: { link: FooterLink }): ReactElement {
  const { t } = useTranslation();
  const label = t(`landing.${link.label}`);
  return 'to' in link ? <Link to={link.to}>{label}</Link> : <a href={link.href}>{label}</a>;
}

export function LandingFooter(): ReactElement {
  const { t } = useTranslation();
  return (
    <footer className={styles.footer}>
      <div className={styles.footerGrid}>
        <div>
          <Brand tone="light" />
          <p className={styles.footerText}>{t('landing.tagline')}</p>
        </div>
        {FOOTER_COLUMNS.map((column) => (
          <nav key={column.title} aria-label={t(`landing.${column.title}`)}>
            <h3 className={styles.footerTitle}>{t(`landing.${column.title}`)}</h3>
            <ul>
              {column.links.map((link) => (
                <li key={link.label}>
                  <FooterAnchor link={link} />
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className={styles.footerBottom}>
        <p>{t('landing.rights', { year: new Date().getFullYear() })}</p>
        <p className={styles.footerLegal}>
          <Link to="/privacy">{t('landing.privacy')}</Link>
          <Link to="/terms">{t('landing.terms')}</Link>
          <Link to="/privacy#device">{t('landing.cookies')}</Link>
        </p>
        <p>{t('landing.builtBy')}</p>
      </div>
    </footer>
  );
}
