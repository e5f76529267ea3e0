/**
 * The signed-in layout: side navigation (a drawer on small screens) and the page. Items
 * have id, label, icon and path; admins also get Users (spec section 2) and the audit and operations screens.
 * The theme switch (system, light, dark) sits above the user at the bottom of the navigation.
 */
import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Icon, type IconName } from '../components/ui/icons.tsx';
import { ThemeToggle } from '../components/ui/ThemeToggle.tsx';
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

export function AppShell({ children }: { children: ReactNode }): ReactElement {
  const user = useUser();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const location = useLocation();
  useEffect(() => {
    if (!drawerOpen) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);
  const items = [...USER_ITEMS, ...(user.isAdmin ? ADMIN_ITEMS : []), LOGOUT_ITEM];
  const current = items.find((item) => location.pathname.startsWith(item.path));
  return (
    <div className={`shell${drawerOpen ? ' shell-drawer-open' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar-mobile">
        <button
          type="button"
          className="icon-button"
          aria-label="Open menu"
          aria-expanded={drawerOpen}
          aria-controls="side-nav"
          onClick={() => setDrawerOpen(true)}
        >
          <Icon name="menu" />
        </button>
        <Link to="/" className="brand brand-sm">
          <span className="brand-mark" aria-hidden="true">
            ₹
          </span>{' '}
          Rupee Wallet
        </Link>
        <span className="topbar-page">{current?.label ?? ''}</span>
      </header>
      <div className="drawer-backdrop" onClick={() => setDrawerOpen(false)} aria-hidden="true" />
      <nav id="side-nav" className="sidenav" aria-label="Main">
        <div className="sidenav-top">
          <Link to="/" className="brand">
            <span className="brand-mark" aria-hidden="true">
              ₹
            </span>{' '}
            Rupee Wallet
          </Link>
          <button
            type="button"
            className="icon-button sidenav-close"
            aria-label="Close menu"
            onClick={() => setDrawerOpen(false)}
          >
            <Icon name="x" />
          </button>
        </div>
        <ul className="sidenav-list">
          {items.map((item) => (
            <li key={item.id}>
              <NavLink
                to={item.path}
                className={({ isActive }) => `sidenav-link${isActive ? ' active' : ''}`}
                onClick={() => setDrawerOpen(false)}
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
      </nav>
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
