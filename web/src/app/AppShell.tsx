/**
 * The signed-in layout: side navigation and the page. Items have id, label, icon and path;
 * admins also get Users (spec section 2) and the audit and operations screens. The theme
 * switch (system, light, dark) sits above the user at the bottom of the navigation.
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
import { NavLink, useLocation } from 'react-router-dom';
import { Brand } from '../components/SiteHeader/Brand.tsx';
import { Icon, type IconName } from '../components/ui/icons.tsx';
import { ThemeToggle } from '../components/ui/ThemeToggle.tsx';
import type { UserRecord } from '../lib/api/current-user.ts';
import { useUser } from './session.tsx';

interface NavItem {
  id: string;
  label: string;
  icon: IconName;
  path: string;
}

const USER_ITEMS: NavItem[] = [
  { id: 'dashboard', label: 'Dashboard', icon: 'dashboard', path: '/dashboard' },
  { id: 'transactions', label: 'Transactions', icon: 'transactions', path: '/transactions' },
  { id: 'requests', label: 'Requests', icon: 'requests', path: '/requests' },
];
const ADMIN_ITEMS: NavItem[] = [
  { id: 'users', label: 'Users', icon: 'users', path: '/users' },
  { id: 'audit', label: 'Account audit', icon: 'search', path: '/admin/audit' },
  { id: 'ledger', label: 'Ledger explorer', icon: 'history', path: '/admin/ledger' },
  { id: 'operations', label: 'Operations', icon: 'chart', path: '/admin/operations' },
];
const LOGOUT_ITEM: NavItem = { id: 'logout', label: 'Logout', icon: 'logout', path: '/logout' };
/** Where the permanent navigation gives way to the menu; the same width as in styles.css. */
const PHONE_QUERY = '(max-width: 860px)';

interface SideNavProps {
  user: UserRecord;
  items: NavItem[];
  /** The menu's close button, in the dialog only. */
  closeButton?: ReactNode;
  onNavigate?: () => void;
}

/** The navigation's contents, the same in the permanent side bar and in the phone menu. */
function SideNav({ user, items, closeButton, onNavigate }: SideNavProps): ReactElement {
  return (
    <>
      <div className="sidenav-top">
        <Brand />
        {closeButton}
      </div>
      <ul className="sidenav-list">
        {items.map((item) => (
          <li key={item.id}>
            <NavLink
              to={item.path}
              className={({ isActive }) => `sidenav-link${isActive ? ' active' : ''}`}
              onClick={onNavigate}
            >
              <Icon name={item.icon} /> <span>{item.label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
      <ThemeToggle />
      <div className="sidenav-user">
        <span className="avatar" aria-hidden="true">
          {(user.firstName[0] ?? '?').toUpperCase()}
        </span>
        <div>
          <p className="sidenav-user-name">
            {user.firstName} {user.lastName}
          </p>
          <p className="sidenav-user-role">{user.isAdmin ? 'Administrator' : 'Personal account'}</p>
        </div>
      </div>
    </>
  );
}

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
  useCloseAbovePhoneWidth(menuOpen, setMenuOpen);
  const items = [...USER_ITEMS, ...(user.isAdmin ? ADMIN_ITEMS : []), LOGOUT_ITEM];
  const current = items.find((item) => location.pathname.startsWith(item.path));
  return (
    // The Dialog portals into body, outside this div: inert covers exactly the page behind it.
    <div className="shell" inert={menuOpen}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
        <header className="topbar-mobile">
          <Dialog.Trigger className="icon-button" aria-label="Open menu">
            <Icon name="menu" />
          </Dialog.Trigger>
          <Brand size="small" />
          <span className="topbar-page">{current?.label ?? ''}</span>
        </header>
        <Dialog.Portal>
          <Dialog.Overlay className="drawer-backdrop" />
          {/* No description: the title and the navigation inside say what it is. */}
          {/* radix hides its siblings (aria-hidden, sparing live regions: the shell's inert does
              the rest) but leaves aria-modal to us; screen readers that honour it stay inside. */}
          <Dialog.Content className="sidenav-drawer" aria-describedby={undefined} aria-modal="true">
            <Dialog.Title className="sr-only">Menu</Dialog.Title>
            <nav className="sidenav" aria-label="Main">
              <SideNav
                user={user}
                items={items}
                onNavigate={() => setMenuOpen(false)}
                closeButton={
                  <Dialog.Close className="icon-button" aria-label="Close menu">
                    <Icon name="x" />
                  </Dialog.Close>
                }
              />
            </nav>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <nav className="sidenav sidenav-fixed" aria-label="Main">
        <SideNav user={user} items={items} />
      </nav>
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
