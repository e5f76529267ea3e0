/**
 * An audit screen's filter bar: the caller's fields, then Apply (submits the draft) and
 * Clear (resets draft and applied filters).
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
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
          {t('audit.apply')}
        </Button>
        <Button variant="ghost" onClick={onClear}>
          {t('audit.clear')}
        </Button>
      </div>
    </form>
  );
}
