/**
 * The landing page's footer: brand, contact, social links, link columns and the legal line.
 * A link goes to a page of this app where one fits (the docs, the architecture, the features
 * above); the rest stay the spec's placeholders.
 */
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Brand } from '../../../components/SiteHeader/Brand.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import styles from './Landing.module.css';

/** `to`: a route of the app; `href`: a place on this page or a mail address; neither: a placeholder. */
interface FooterLink {
  label: string;
  to?: string;
  href?: string;
}

const FOOTER_COLUMNS: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Product',
    links: [
      { label: 'Features', href: '#features' },
      { label: 'Security', to: '/docs#security' },
      { label: 'Architecture', to: '/architecture' },
      { label: 'Pricing' },
    ],
  },
  { title: 'Company', links: [{ label: 'About us' }, { label: 'Careers' }, { label: 'Press' }, { label: 'Blog' }] },
  {
    title: 'Support',
    links: [
      { label: 'Help centre', to: '/docs' },
      { label: 'Contact us', href: 'mailto:support@rupeewallet.example' },
      { label: 'Status' },
      { label: 'Report fraud', href: 'mailto:support@rupeewallet.example?subject=Report%20fraud' },
    ],
  },
];

function FooterAnchor({ link }: { link: FooterLink }): ReactElement {
  return link.to ? <Link to={link.to}>{link.label}</Link> : <a href={link.href ?? '#'}>{link.label}</a>;
}

export function LandingFooter(): ReactElement {
  return (
    <footer className={styles.footer}>
      <div className={styles.footerGrid}>
        <div>
          <Brand tone="light" />
          <p className={styles.footerText}>The rupee wallet for people and merchants.</p>
          <p className={styles.footerContact}>
            <Icon name="phone" size={16} /> <a href="tel:+918000000000">+91 80000 00000</a>
          </p>
          <p className={styles.footerContact}>
            <Icon name="mail" size={16} /> <a href="mailto:support@rupeewallet.example">support@rupeewallet.example</a>
          </p>
          <div className={styles.socials} aria-label="Social media">
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
          <nav key={column.title} aria-label={column.title}>
            <h3 className={styles.footerTitle}>{column.title}</h3>
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
        <p>© {new Date().getFullYear()} Rupee Wallet. All rights reserved.</p>
        <p className={styles.footerLegal}>
          <a href="#">Privacy Policy</a>
          <a href="#">Terms of Service</a>
          <a href="#">Cookie Policy</a>
        </p>
        <p>
          Built by{' '}
          <a href="https://github.com" rel="noreferrer" target="_blank">
            the wallet team
          </a>
        </p>
      </div>
    </footer>
  );
}
