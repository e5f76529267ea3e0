/**
 * The account audit page's state: the chosen account (in the URL, ?account=), the
 * statement's draft and applied filters, its pages and the raw events, the CSV download
 * and its toast, and the reversal dialog's target (a reversal refreshes the statement through
 * its mutation's invalidation).
 */
import i18next from 'i18next';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { downloadStatementCsv } from '../api/download-statement-csv.ts';
import { useAccountEvents } from '../api/get-account-events.ts';
import { useStatement } from '../api/get-statement.ts';
import { useAuditUsers } from '../api/get-users.ts';
import type { StatementFilters } from '../api/types.ts';
import type { ReverseTarget } from './ReverseDialog.tsx';

export const NO_STATEMENT_FILTERS: StatementFilters = { from: '', to: '', type: '' };

export function useAccountAudit() {
  const [params, setParams] = useSearchParams();
  const accountId = params.get('account') ?? '';
  const users = useAuditUsers();
  const [draft, setDraft] = useState<StatementFilters>(NO_STATEMENT_FILTERS);
  const [filters, setFilters] = useState<StatementFilters>(NO_STATEMENT_FILTERS);
  const [target, setTarget] = useState<ReverseTarget | null>(null);
  const [downloading, setDownloading] = useState(false);
  const notify = useToast();
  const statement = useStatement(accountId, filters);
  const events = useAccountEvents(accountId);

  function chooseAccount(id: string): void {
    setParams(id ? { account: id } : {});
    setDraft(NO_STATEMENT_FILTERS);
    setFilters(NO_STATEMENT_FILTERS);
  }

  async function download(): Promise<void> {
    setDownloading(true);
    try {
      await downloadStatementCsv(accountId, filters);
    } catch (error) {
      notify({ tone: 'error', message: error instanceof Error ? error.message : i18next.t('audit.downloadFailed') });
    } finally {
      setDownloading(false);
    }
  }

  return {
    accountId,
    chooseAccount,
    userOptions: (users.data ?? []).map((user) => ({
      value: user._id,
      label: `${user.firstName} ${user.lastName} (${user.email})`,
    })),
    usersPending: users.isPending,
    draft,
    setDraft,
    applyFilters: () => setFilters(draft),
    clearFilters: () => {
      setDraft(NO_STATEMENT_FILTERS);
      setFilters(NO_STATEMENT_FILTERS);
    },
    statement,
    lines: (statement.data?.pages ?? []).flatMap((page) => page.items),
    head: statement.data?.pages[0],
    events,
    eventRows: (events.data?.pages ?? []).flatMap((page) => page.items),
    downloading,
    download,
    target,
    setTarget,
  };
}

export type AccountAudit = ReturnType<typeof useAccountAudit>;
