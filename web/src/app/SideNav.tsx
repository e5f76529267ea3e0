/**
 * The signed-in navigation: items (id, label, icon, path) for every user, the admin screens
 * for admins (Users, spec section 2, and the audit and operations screens), Logout last;
 * then the theme and language switches and who is signed in. Labels are translation keys. The same contents serve the permanent side
 * bar and the phone menu.
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { Brand } from '../components/SiteHeader/Brand.tsx';
import { Icon, type IconName } from '../components/ui/icons.tsx';
import { LanguageSwitch } from '../components/ui/LanguageSwitch.tsx';
import { ThemeToggle } from '../components/ui/ThemeToggle.tsx';
import type { Messages } from '../i18n/resources/en.ts';
import type { UserRecord } from '../lib/api/current-user.ts';
import styles from './AppShell.module.css';

export interface NavItem {
  id: string;
  /** A key of the nav texts (en.ts `nav`). */
  label: `nav.${keyof Messages['nav']}`;
  icon: IconName;
  path: string;
}

const USER_ITEMS: NavItem[] = [
  { id: 'dashboard', label: 'nav.dashboard', icon: 'dashboard', path: '/dashboard' },
  { id: 'transactions', label: 'nav.transactions', icon: 'transactions', path: '/transactions' },
  { id: 'requests', label: 'nav.requests', icon: 'requests', path: '/requests' },
];
const ADMIN_ITEMS: NavItem[] = [
  { id: 'users', label: 'nav.users', icon: 'users', path: '/users' },
  { id: 'audit', label: 'nav.audit', icon: 'search', path: '/admin/audit' },
  { id: 'ledger', label: 'nav.ledger', icon: 'history', path: '/admin/ledger' },
  { id: 'operations', label: 'nav.operations', icon: 'chart', path: '/admin/operations' },
  { id: 'disputes', label: 'nav.disputes', icon: 'shield', path: '/admin/disputes' },
];
const LOGOUT_ITEM: NavItem = { id: 'logout', label: 'nav.logout', icon: 'logout', path: '/logout' };
/** The items a user sees, in order. */
export function navItemsFor(user: UserRecord): NavItem[] {
  return [...USER_ITEMS, ...(user.isAdmin ? ADMIN_ITEMS : []), LOGOUT_ITEM];
}

interface SideNavProps {
  user: UserRecord;
  items: NavItem[];
  /** The menu's close button, in the dialog only. */
  closeButton?: ReactNode;
  onNavigate?: () => void;
}

/** The navigation's contents, the same in the permanent side bar and in the phone menu. */
export function SideNav({ user, items, closeButton, onNavigate }: SideNavProps): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <div className={styles.sidenavTop}>
        <Brand />
        {closeButton}
      </div>
      <ul className={styles.sidenavList}>
        {items.map((item) => (
          <li key={item.id}>
            <NavLink
              to={item.path}
              className={({ isActive }) => `${styles.sidenavLink}${isActive ? ' active' : ''}`}
              onClick={onNavigate}
            >
              <Icon name={item.icon} /> <span>{t(item.label)}</span>
            </NavLink>
          </li>
        ))}
      </ul>
      <ThemeToggle />
      <LanguageSwitch className={styles.sidenavLanguage} />
      <div className={styles.sidenavUser}>
        <span className={styles.avatar} aria-hidden="true">
          {(user.firstName[0] ?? '?').toUpperCase()}
        </span>
        <div>
          <p className={styles.sidenavUserName}>
            {user.firstName} {user.lastName}
          </p>
          <p className={styles.sidenavUserRole}>
            {user.isAdmin ? t('shell.administrator') : t('shell.personalAccount')}
          </p>
        </div>
      </div>
    </>
  );
}
