/**
 * The Transactions page's date range: filters the list (either end may be empty) and is the
 * period of the statement downloaded as CSV or PDF (India Standard Time days).
 */
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { kolkataToday, statementPeriodSchema } from '../../../../../contracts/statements.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { downloadStatement, type StatementFormat } from '../api/download-statement.ts';
import styles from './StatementRange.module.css';

/** The period a statement download covers: the filter's dates, else this month up to today. */
export function statementPeriod(
  from: string,
  to: string,
  today: string = kolkataToday(),
): { from: string; to: string } {
  const end = to || today;
  return { from: from || `${end.slice(0, 8)}01`, to: end };
}

export function StatementRange(props: {
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
}): ReactElement {
  const notify = useToast();
  const { t } = useTranslation();
  const [busy, setBusy] = useState<StatementFormat | null>(null);
  const today = kolkataToday();
  const period = statementPeriod(props.from, props.to, today);
  const checked = statementPeriodSchema.safeParse(period);
  const problem = checked.success ? null : (checked.error.issues[0]?.message ?? t('transactions.invalidDates'));
  async function download(format: StatementFormat): Promise<void> {
    setBusy(format);
    try {
      await downloadStatement(format, period);
    } catch (error) {
      notify({ tone: 'error', message: error instanceof Error ? error.message : t('transactions.downloadFailed') });
    } finally {
      setBusy(null);
    }
  }
  return (
    <div className={styles.range} role="group" aria-label={t('transactions.rangeLabel')}>
      <label className={styles.date}>
        <span>{t('transactions.from')}</span>
        <input
          type="date"
          className="input"
          value={props.from}
          max={today}
          onChange={(event) => props.onChange({ from: event.target.value, to: props.to })}
        />
      </label>
      <label className={styles.date}>
        <span>{t('transactions.to')}</span>
        <input
          type="date"
          className="input"
          value={props.to}
          max={today}
          onChange={(event) => props.onChange({ from: props.from, to: event.target.value })}
        />
      </label>
      {props.from || props.to ? (
        <Button variant="secondary" size="sm" onClick={() => props.onChange({ from: '', to: '' })}>
          {t('transactions.clearDates')}
        </Button>
      ) : null}
      <div className={styles.downloads}>
        <span className="small muted">{t('transactions.downloadStatement', { from: period.from, to: period.to })}</span>
        {(['csv', 'pdf'] as const).map((format) => (
          <Button
            key={format}
            variant="secondary"
            size="sm"
            disabled={problem !== null || busy !== null}
            onClick={() => void download(format)}
          >
            <Icon name="download" size={16} /> {busy === format ? t('transactions.preparing') : format.toUpperCase()}
          </Button>
        ))}
      </div>
      {problem ? (
        <p className={`field-error ${styles.problem}`} role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
