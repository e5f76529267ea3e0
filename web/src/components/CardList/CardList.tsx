/**
 * The phone form of a list: one card per row, shown below the CSS breakpoint where the
 * desktop table is hidden (`only-mobile`). The caller draws each card; `ExpandableCard` is
 * the common one (a summary button that opens the row's details below it), with
 * `useExpandedCard` holding which card is open (one at a time). The rules are in
 * CardList.module.css; the plain classes `card-list`, `list-card` and `list-card-toggle` stay
 * for the browser tests and for callers' card layouts (ResponsiveTable).
 */
import { useState, type ReactElement, type ReactNode } from 'react';
import { Icon } from '../ui/icons.tsx';
import styles from './CardList.module.css';

export function CardList<Row extends { _id: string }>({
  rows,
  label,
  cardClassName,
  renderCard,
}: {
  rows: readonly Row[];
  /** The list's accessible name, when the page has more than one list. */
  label?: string;
  /** A class added to each card, for a caller's own card layout. */
  cardClassName?: string;
  renderCard: (row: Row) => ReactNode;
}): ReactElement {
  return (
    <ul className={`only-mobile card-list ${styles.list}`} aria-label={label}>
      {rows.map((row) => (
        <li key={row._id} className={['list-card', styles.card, cardClassName].filter(Boolean).join(' ')}>
          {renderCard(row)}
        </li>
      ))}
    </ul>
  );
}

export interface ExpandedCard {
  isOpen: (id: string) => boolean;
  toggle: (id: string) => void;
}

/** Which card is open, if any: opening one closes the other. */
export function useExpandedCard(): ExpandedCard {
  const [expanded, setExpanded] = useState<string | null>(null);
  return {
    isOpen: (id) => expanded === id,
    toggle: (id) => setExpanded((current) => (current === id ? null : id)),
  };
}

/** A card whose summary (title, subtitle, end column) is a button that shows `children` below. */
export function ExpandableCard({
  open,
  onToggle,
  title,
  subtitle,
  end,
  children,
}: {
  open: boolean;
  onToggle: () => void;
  title: ReactNode;
  subtitle: ReactNode;
  end: ReactNode;
  children: ReactNode;
}): ReactElement {
  return (
    <>
      <button type="button" className={`list-card-toggle ${styles.toggle}`} aria-expanded={open} onClick={onToggle}>
        <div>
          <strong>{title}</strong>
          <p className="muted small">{subtitle}</p>
        </div>
        <div className={styles.end}>{end}</div>
        <Icon name="chevronDown" size={18} className={open ? 'rotate' : ''} />
      </button>
      {open ? <div className={styles.detail}>{children}</div> : null}
    </>
  );
}
