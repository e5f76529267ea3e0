/**
 * The signed-in layout: side navigation (SideNav.tsx) and the page.
 * Wide screens show the navigation permanently; at phone widths (860px and below, where the
 * CSS hides it) "Open menu" opens the same navigation in a radix Dialog, which traps focus,
 * closes on Escape, "Close menu", the backdrop or a link, and hands focus back to "Open menu".
 * While it is open the shell (everything behind the menu) is `inert`: radix's own hiding
 * (aria-hidden on the Dialog's siblings) spares every aria-live element and its ancestors, so
 * a live region in the page (recharts' tooltip, a field counter, the loading view) would keep
 * `main` in the accessibility tree.
 */
import { Dialog } from 'radix-ui';
import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { Brand } from '../components/SiteHeader/Brand.tsx';
import { Icon } from '../components/ui/icons.tsx';
import { useUser } from './session.tsx';
import { navItemsFor, SideNav } from './SideNav.tsx';
import styles from './AppShell.module.css';

/** Where the permanent navigation gives way to the menu; the same width as in AppShell.module.css. */
const PHONE_QUERY = '(max-width: 860px)';

/** Closes the menu when the window grows past phone width (a rotated tablet), where the
 * permanent navigation is back and a modal menu would only trap focus. */
function useCloseAbovePhoneWidth(open: boolean, setOpen: (open: boolean) => void): void {
  useEffect(() => {
    if (!open || typeof window.matchMedia !== 'function') return undefined;
    const phone = window.matchMedia(PHONE_QUERY);
    const onChange = () => {
      if (!phone.matches) setOpen(false);
    };
    phone.addEventListener('change', onChange);
    return () => phone.removeEventListener('change', onChange);
  }, [open, setOpen]);
}

export function AppShell({ children }: { children: ReactNode }): ReactElement {
  const user = useUser();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const { t } = useTranslation();
  useCloseAbovePhoneWidth(menuOpen, setMenuOpen);
  const items = navItemsFor(user);
  const current = items.find((item) => location.pathname.startsWith(item.path));
  return (
    // The Dialog portals into body, outside this div: inert covers exactly the page behind it.
    <div className={styles.shell} inert={menuOpen}>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
        <header className={styles.topbarMobile}>
          <Dialog.Trigger className="icon-button" aria-label={t('shell.openMenu')}>
            <Icon name="menu" />
          </Dialog.Trigger>
          <Brand size="small" />
          <span className={styles.topbarPage}>{current ? t(current.label) : ''}</span>
        </header>
        <Dialog.Portal>
          <Dialog.Overlay className="drawer-backdrop" />
          {/* No description: the title and the navigation inside say what it is. */}
          {/* radix hides its siblings (aria-hidden, sparing live regions: the shell's inert does
              the rest) but leaves aria-modal to us; screen readers that honour it stay inside. */}
          <Dialog.Content className={styles.sidenavDrawer} aria-describedby={undefined} aria-modal="true">
            <Dialog.Title className="sr-only">{t('shell.menu')}</Dialog.Title>
            <nav className={styles.sidenav} aria-label={t('shell.mainNavigation')}>
              <SideNav
                user={user}
                items={items}
                onNavigate={() => setMenuOpen(false)}
                closeButton={
                  <Dialog.Close className="icon-button" aria-label={t('shell.closeMenu')}>
                    <Icon name="x" />
                  </Dialog.Close>
                }
              />
            </nav>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <nav className={`${styles.sidenav} ${styles.sidenavFixed}`} aria-label={t('shell.mainNavigation')}>
        <SideNav user={user} items={items} />
      </nav>
      <main id="main" className={styles.shellMain} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
