/**
 * An audit screen's filter bar: the caller's fields, then Apply (submits the draft) and
 * Clear (resets draft and applied filters).
 */
import type { ReactElement, ReactNode } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import './audit.css';

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
      className="audit-filters"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      {children}
      <div className="audit-actions">
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
