/**
 * The Transactions page's list state: search (deferred), type filter, date range, page,
 * and the counters the page shows. Dates out of order are not sent (the range says why);
 * a search with more matches than the server counts has a total of "at least" (1,000+).
 */
import { useDeferredValue, useEffect, useState } from 'react';
import { HISTORY_PAGE_SIZE } from '../../../../../contracts/transactions.ts';
import { useHistory, type HistoryType } from '../api/get-transactions.ts';

export function useTransactionHistory() {
  const [search, setSearch] = useState('');
  const [type, setType] = useState<HistoryType>('all');
  const [page, setPage] = useState(1);
  const [range, setRange] = useState({ from: '', to: '' });
  const deferredSearch = useDeferredValue(search);
  const dates = range.from && range.to && range.from > range.to ? { from: '', to: '' } : range;
  const history = useHistory({ page, search: deferredSearch, type, ...dates });
  const everything = useHistory({ page: 1, pageSize: 1, search: '', type: 'all' });
  useEffect(() => setPage(1), [deferredSearch, type, dates.from, dates.to]);

  const items = history.data?.items ?? [];
  const total = history.data?.total ?? 0;
  const exact = history.data?.totalExact ?? true;
  const last = exact ? Math.min(total, page * HISTORY_PAGE_SIZE) : (page - 1) * HISTORY_PAGE_SIZE + items.length;
  return {
    search,
    setSearch,
    type,
    setType,
    range,
    setRange,
    page,
    previous: () => setPage((current) => current - 1),
    next: () => setPage((current) => current + 1),
    history,
    items,
    totalText: exact ? String(total) : `${total.toLocaleString('en-IN')}+`,
    allTotal: everything.data?.total ?? total,
    first: total === 0 ? 0 : (page - 1) * HISTORY_PAGE_SIZE + 1,
    last,
    hasNext: exact ? last < total : items.length === HISTORY_PAGE_SIZE,
  };
}
