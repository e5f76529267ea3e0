/**
 * The landing page's footer: brand, contact, social links, link columns and the legal line.
 * A link goes to a page of this app where one fits (the docs, the architecture, the features
 * above); the rest stay the spec's placeholders.
 */
import type { ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Brand } from '../../../components/SiteHeader/Brand.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import type { Messages } from '../../../i18n/resources/en.ts';
import styles from './Landing.module.css';

type LandingKey = keyof Messages['landing'];

/** `to`: a route of the app; `href`: a place on this page or a mail address; neither: a placeholder. */
interface FooterLink {
  label: LandingKey;
  to?: string;
  href?: string;
}

const FOOTER_COLUMNS: { title: LandingKey; links: FooterLink[] }[] = [
  {
    title: 'productColumn',
    links: [
      { label: 'features', href: '#features' },
      { label: 'security', to: '/docs#security' },
      { label: 'architecture', to: '/architecture' },
      { label: 'pricing' },
    ],
  },
  { title: 'companyColumn', links: [{ label: 'about' }, { label: 'careers' }, { label: 'press' }, { label: 'blog' }] },
  {
    title: 'supportColumn',
    links: [
      { label: 'help', to: '/docs' },
      { label: 'contact', href: 'mailto:support@rupeewallet.example' },
      { label: 'status' },
      { label: 'reportFraud', href: 'mailto:support@rupeewallet.example?subject=Report%20fraud' },
    ],
  },
];

function FooterAnchor({ link }: { link: FooterLink }): ReactElement {
  const { t } = useTranslation();
  const label = t(`landing.${link.label}`);
  return link.to ? <Link to={link.to}>{label}</Link> : <a href={link.href ?? '#'}>{label}</a>;
}

export function LandingFooter(): ReactElement {
  const { t } = useTranslation();
  return (
    <footer className={styles.footer}>
      <div className={styles.footerGrid}>
        <div>
          <Brand tone="light" />
          <p className={styles.footerText}>{t('landing.tagline')}</p>
          <p className={styles.footerContact}>
            <Icon name="phone" size={16} /> <a href="tel:+918000000000">+91 80000 00000</a>
          </p>
          <p className={styles.footerContact}>
            <Icon name="mail" size={16} /> <a href="mailto:support@rupeewallet.example">support@rupeewallet.example</a>
          </p>
          <div className={styles.socials} aria-label={t('landing.socialMedia')}>
            {['X', 'LinkedIn', 'Instagram', 'YouTube'].map((name) => (
              <a key={name} href="#" className={styles.social}>
                {/* The visible letters are a logo; the name is what is read (axe: label-content-name-mismatch). */}
                <span aria-hidden="true">{name.slice(0, 2)}</span>
                <span className="sr-only">{name}</span>
              </a>
            ))}
          </div>
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
          <a href="#">{t('landing.privacy')}</a>
          <a href="#">{t('landing.terms')}</a>
          <a href="#">{t('landing.cookies')}</a>
        </p>
        <p>
          <Trans
            i18nKey="landing.builtBy"
            components={{ team: <a href="https://github.com" rel="noreferrer" target="_blank" /> }}
          />
        </p>
      </div>
    </footer>
  );
}
