/**
 * The public landing page (spec sections 1 and 2): top bar, hero with the two real
 * screenshots (taken by the browser tests into /screenshots; a neutral frame when they are
 * missing), six feature cards, the statistics band, call to action and footer. Kept light:
 * it is the first route most visitors load.
 */
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../../../components/ui/icons.tsx';
import { Brand } from '../../../components/SiteHeader/Brand.tsx';
import { SiteHeader } from '../../../components/SiteHeader/SiteHeader.tsx';
import { CountUp } from './CountUp.tsx';

const FEATURES: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'qr',
    title: 'UPI QR Payments',
    text: 'Scan any wallet QR code with your camera or upload an image, verify the recipient and pay in seconds. Merchants get a UPI-compatible QR for every counter.',
  },
  {
    icon: 'card',
    title: 'Card Payments',
    text: 'Top up instantly with a debit or credit card through our PCI DSS compliant card partner, or add money by bank transfer and UPI.',
  },
  {
    icon: 'requests',
    title: 'Money Requests',
    text: 'Ask friends, family or customers for money. They approve with their PIN and the transfer happens automatically.',
  },
  {
    icon: 'shield',
    title: 'Identity Verification',
    text: 'Every account is checked against its identity documents (KYC) before it can move money, keeping fraud out of the network.',
  },
  {
    icon: 'users',
    title: 'Role-Based Access',
    text: 'Customisable permissions for admins, users and merchants. Admins verify customers and suspend accounts from one screen.',
  },
  {
    icon: 'chart',
    title: 'Real-Time Tracking',
    text: 'Every rupee is tracked as it moves: searchable history, instant balances and analytics for your spending.',
  },
];

const FOOTER_COLUMNS: { title: string; links: string[] }[] = [
  { title: 'Product', links: ['Features', 'Pricing', 'Security', 'For merchants'] },
  { title: 'Company', links: ['About us', 'Careers', 'Press', 'Blog'] },
  { title: 'Support', links: ['Help centre', 'Contact us', 'Status', 'Report fraud'] },
];

function Screenshot({ src, alt, className }: { src: string; alt: string; className: string }): ReactElement {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <div className={`${className} shot-fallback`} role="img" aria-label={alt}>
        <span className="shot-bar" />
        <span className="shot-line w60" />
        <span className="shot-block" />
        <span className="shot-line w80" />
        <span className="shot-line w40" />
      </div>
    );
  }
  return (
    <img src={src} alt={alt} className={className} onError={() => setFailed(true)} loading="eager" decoding="async" />
  );
}

export default function LandingPage(): ReactElement {
  return (
    <div className="landing">
      <SiteHeader>
        <a href="#features" className="landing-link hide-sm">
          Features
        </a>
        <Link to="/docs" className="btn btn-ghost btn-md hide-sm">
          Docs
        </Link>
        <Link to="/register" className="btn btn-primary btn-md">
          Get Started
        </Link>
      </SiteHeader>
      <main id="main">
        <section className="hero">
          <div className="hero-copy">
            <span className="hero-badge">
              <span className="hero-badge-dot" aria-hidden="true" /> Now Live: Money Request &amp; Role-Based Access
            </span>
            <h1 className="hero-title">
              Your Digital Wallet <span className="accent">Reimagined</span>
            </h1>
            <p className="hero-text">
              Hold rupees, pay anyone by account number or QR code, request money and top up by UPI, bank transfer or
              card — with a PIN on every payment and a ledger that never loses a paisa.
            </p>
            <div className="hero-actions">
              <Link to="/register" className="btn btn-primary btn-lg">
                Sign Up
              </Link>
              <Link to="/login" className="btn btn-secondary btn-lg">
                Log in
              </Link>
            </div>
            <ul className="hero-badges" aria-label="Assurances">
              <li>
                <Icon name="shield" size={16} /> PCI DSS
              </li>
              <li>
                <Icon name="lock" size={16} /> ISO 27001
              </li>
              <li>
                <Icon name="card" size={16} /> Stripe card payments
              </li>
              <li>
                <Icon name="check" size={16} /> No setup fees
              </li>
              <li>
                <Icon name="phone" size={16} /> 24/7 support
              </li>
            </ul>
          </div>
          <div className="hero-preview" aria-label="Product preview">
            <Screenshot
              src="/screenshots/desktop.png"
              alt="The wallet dashboard on a desktop screen"
              className="shot-desktop"
            />
            <Screenshot src="/screenshots/mobile.png" alt="The wallet dashboard on a phone" className="shot-mobile" />
          </div>
        </section>
        <section id="features" className="features" aria-labelledby="features-title">
          <h2 id="features-title" className="section-title">
            Everything your money needs
          </h2>
          <p className="section-text">One wallet for people and merchants: pay, get paid and stay in control.</p>
          <div className="feature-grid">
            {FEATURES.map((feature) => (
              <article key={feature.title} className="feature-card">
                <span className="feature-icon">
                  <Icon name={feature.icon} />
                </span>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </article>
            ))}
          </div>
        </section>
        <section className="stats" aria-label="Statistics">
          <div>
            <p className="stat-value">
              <CountUp target={5} suffix="L+" />
            </p>
            <p className="stat-label">Active users</p>
          </div>
          <div>
            <p className="stat-value">
              <CountUp target={50} prefix="₹" suffix="Cr+" />
            </p>
            <p className="stat-label">Transactions processed</p>
          </div>
          <div>
            <p className="stat-value">
              <CountUp target={1} suffix="Cr+" />
            </p>
            <p className="stat-label">Requests fulfilled</p>
          </div>
          <div>
            <p className="stat-value">
              <CountUp target={99.9} decimals={1} suffix="%" />
            </p>
            <p className="stat-label">Uptime</p>
          </div>
        </section>
        <section className="cta">
          <h2>Open your wallet in minutes</h2>
          <p>No setup fees. Verified accounts only. Support around the clock.</p>
          <div className="hero-actions">
            <Link to="/register" className="btn btn-light btn-lg">
              Create free account
            </Link>
            <Link to="/docs" className="btn btn-outline-light btn-lg">
              Read the docs
            </Link>
          </div>
        </section>
      </main>
      <footer className="footer">
        <div className="footer-grid">
          <div>
            <Brand tone="light" />
            <p className="footer-text">The rupee wallet for people and merchants.</p>
            <p className="footer-contact">
              <Icon name="phone" size={16} /> <a href="tel:+918000000000">+91 80000 00000</a>
            </p>
            <p className="footer-contact">
              <Icon name="mail" size={16} />{' '}
              <a href="mailto:support@rupeewallet.example">support@rupeewallet.example</a>
            </p>
            <div className="socials" aria-label="Social media">
              {['X', 'LinkedIn', 'Instagram', 'YouTube'].map((name) => (
                <a key={name} href="#" className="social">
                  {/* The visible letters are a logo; the name is what is read (axe: label-content-name-mismatch). */}
                  <span aria-hidden="true">{name.slice(0, 2)}</span>
                  <span className="sr-only">{name}</span>
                </a>
              ))}
            </div>
          </div>
          {FOOTER_COLUMNS.map((column) => (
            <nav key={column.title} aria-label={column.title}>
              <h3 className="footer-title">{column.title}</h3>
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
        <div className="footer-bottom">
          <p>© {new Date().getFullYear()} Rupee Wallet. All rights reserved.</p>
          <p className="footer-legal">
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
    </div>
  );
}
