/**
 * /docs: the product explained for users, and a link to the API reference at /api/docs.
 * The chrome and section titles are translated; the sections' prose stays English. A link to
 * a section (/docs#deposit) opens the page at that section.
 */
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { SiteHeader } from '../../../components/SiteHeader/SiteHeader.tsx';
import type { Messages } from '../../../i18n/resources/en.ts';
import styles from './DocsPage.module.css';

/** `title` is a translation key. */
const SECTIONS: { id: string; title: `docs.${keyof Messages['docs']}`; body: ReactElement }[] = [
  {
    id: 'start',
    title: 'docs.start',
    body: (
      <>
        <p>
          Create an account on the <Link to="/register">registration page</Link> with your name, e-mail, contact number,
          an identity document (Passport, Driver's License, National ID, Aadhaar Card or PAN Card) and your address.
          Choose a password of at least 8 characters and a transaction PIN of 4 to 6 digits.
        </p>
        <p>
          Every new account is verified by our team before it can sign in; this takes an estimated 1-2 business days and
          you receive an e-mail when it is done. You can also continue with Google.
        </p>
      </>
    ),
  },
  {
    id: 'account',
    title: 'docs.account',
    body: (
      <p>
        Your account number is shown on the dashboard with a copy button. Your payment QR code encodes a link to your
        account: anyone with a wallet can scan it to pay you, and opening the link after signing in starts a payment to
        you.
      </p>
    ),
  },
  {
    id: 'send',
    title: 'docs.send',
    body: (
      <p>
        On Transactions choose SEND, enter the receiver's account number and press Verify: the wallet shows the account
        holder's name so you can check it. Then enter the amount (at least ₹1), a reference of 3 to 200 characters and
        your transaction PIN. Transfers are instant. SCAN TO PAY does the same from a QR code, with your camera or an
        uploaded image (PNG or JPG up to 10MB).
      </p>
    ),
  },
  {
    id: 'deposit',
    title: 'docs.deposit',
    body: (
      <p>
        DEPOSIT adds between ₹1 and ₹1,00,000 at a time. A card deposit is credited at once. Bank transfer (account
        number, IFSC code, bank name) and UPI deposits are recorded as pending and processed within 1-2 business days.
      </p>
    ),
  },
  {
    id: 'requests',
    title: 'docs.requests',
    body: (
      <p>
        On Requests choose REQUEST MONEY, verify the account you are asking, and enter an amount up to ₹10,00,000 and a
        reference. The other person sees the request under Received and can Approve it with their PIN - the money then
        moves automatically - or Reject it.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'docs.security',
    body: (
      <p>
        Every payment needs your transaction PIN. If you forget it, use Reset Transaction PIN on the Transactions page:
        we e-mail a 6-digit code (valid for 10 minutes). A forgotten password is reset the same way from the sign-in
        page (code valid for 15 minutes). Never share your PIN or codes with anyone, including our staff.
      </p>
    ),
  },
  {
    id: 'history',
    title: 'docs.history',
    body: (
      <p>
        Transactions lists every payment, deposit and request payment, 10 per page, searchable by any part of the
        reference or the beginning of the transaction id, and filterable by type. Deposits are money you added; debits
        are payments you made; credits are payments you received.
      </p>
    ),
  },
];

export default function DocsPage(): ReactElement {
  const { t } = useTranslation();
  const { hash } = useLocation();
  // The browser looks for the #section as the document loads, before this lazily loaded page
  // exists, so a direct visit stayed at the top: scroll once the sections are drawn.
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
  return (
    <div className="docs">
      <SiteHeader>
        {/* Both are in the page's contents too; a phone's top bar has room for one button. */}
        <Link to="/architecture" className="btn btn-ghost btn-md hide-sm">
          {t('publicPages.architecture')}
        </Link>
        <a href="/api/docs" className="btn btn-secondary btn-md hide-sm">
          {t('publicPages.apiReference')}
        </a>
        <Link to="/login" className="btn btn-primary btn-md">
          {t('publicPages.signIn')}
        </Link>
      </SiteHeader>
      <div className={styles.docsLayout}>
        <nav className={styles.docsToc} aria-label={t('docs.onThisPage')}>
          <p className={styles.docsTocTitle}>{t('docs.onThisPage')}</p>
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{t(section.title)}</a>
              </li>
            ))}
            <li>
              <Link to="/architecture">{t('docs.architectureOverview')}</Link>
            </li>
            <li>
              <a href="/api/docs">{t('publicPages.apiReference')}</a>
            </li>
          </ul>
        </nav>
        <main id="main" className={styles.docsMain}>
          <h1 className="page-title">{t('docs.title')}</h1>
          <p className="section-text">
            {t('docs.intro')} <a href="/api/docs">{t('docs.apiLink')}</a>
            {t('docs.introEnd')}
          </p>
          {SECTIONS.map((section) => (
            <section key={section.id} id={section.id} className={styles.docsSection}>
              <h2>{t(section.title)}</h2>
              {section.body}
            </section>
          ))}
        </main>
      </div>
    </div>
  );
}
