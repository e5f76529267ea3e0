/**
 * The landing page's footer: brand, contact, social links, link columns and the legal line.
 */
import type { ReactElement } from 'react';
import { Brand } from '../../../components/SiteHeader/Brand.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import styles from './Landing.module.css';

const FOOTER_COLUMNS: { title: string; links: string[] }[] = [
  { title: 'Product', links: ['Features', 'Pricing', 'Security', 'For merchants'] },
  { title: 'Company', links: ['About us', 'Careers', 'Press', 'Blog'] },
  { title: 'Support', links: ['Help centre', 'Contact us', 'Status', 'Report fraud'] },
];

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
                <li key={link}>
                  <a href="#">{link}</a>
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
