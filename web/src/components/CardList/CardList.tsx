/**
 * The phone form of a list: one card per row, shown below the CSS breakpoint where the
 * desktop table is hidden (`only-mobile`). The caller draws each card; `ExpandableCard` is
 * the common one (a summary button that opens the row's details below it), with
 * `useExpandedCard` holding which card is open (one at a time). The classes `card-list`,
 * `list-card` and `list-card-toggle` are the ones the browser tests find.
 */
import { useState, type ReactElement, type ReactNode } from 'react';
import { Icon } from '../ui/icons.tsx';

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
    <ul className="only-mobile card-list" aria-label={label}>
      {rows.map((row) => (
        <li key={row._id} className={cardClassName ? `list-card ${cardClassName}` : 'list-card'}>
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
      <button type="button" className="list-card-toggle" aria-expanded={open} onClick={onToggle}>
        <div>
          <strong>{title}</strong>
          <p className="muted small">{subtitle}</p>
        </div>
        <div className="list-card-end">{end}</div>
        <Icon name="chevronDown" size={18} className={open ? 'rotate' : ''} />
      </button>
      {open ? <div className="list-card-detail">{children}</div> : null}
    </>
  );
}
