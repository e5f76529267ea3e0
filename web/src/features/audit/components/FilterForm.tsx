/**
 * An audit screen's filter bar: the caller's fields, then Apply (submits the draft) and
 * Clear (resets draft and applied filters).
 */
import type { ReactElement, ReactNode } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import styles from './Audit.module.css';

export function FilterForm({
  label,
  onApply,
  onClear,
  children,
}: {
  label: string;
  onApply: () => void;
  onClear: () => void;
  children: ReactNode;
}): ReactElement {
  return (
    <form
      className={styles.auditFilters}
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      {children}
      <div className={styles.auditActions}>
        <Button type="submit" variant="primary">
          Apply
        </Button>
        <Button variant="ghost" onClick={onClear}>
          Clear
        </Button>
      </div>
    </form>
  );
}
