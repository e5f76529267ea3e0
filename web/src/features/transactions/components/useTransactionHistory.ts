/**
 * The Transactions page's list state: search, type filter, date range, page, and the
 * counters the page shows. Dates out of order are not sent (the range says why); a search
 * with more matches than the server counts has a total of "at least" (1,000+).
 *
 * Calls are budgeted (the spec's 100 per 15 minutes): the search goes out once typing pauses
 * (SEARCH_DEBOUNCE_MS), a request it replaces is aborted (the query's signal), a change of
 * filter shows page 1 in the same render (no call for the old page under the new filter),
 * and the unfiltered total is a call of its own only while a filter is on.
 */
import { useState } from 'react';
import { useDebounce } from 'use-debounce';
import { HISTORY_PAGE_SIZE } from '../../../../../contracts/transactions.ts';
import { useHistory, type HistoryType } from '../api/get-transactions.ts';

export const SEARCH_DEBOUNCE_MS = 350;

export function useTransactionHistory() {
  const [search, setSearch] = useState('');
  const [type, setType] = useState<HistoryType>('all');
  const [range, setRange] = useState({ from: '', to: '' });
  const [debounced] = useDebounce(search, SEARCH_DEBOUNCE_MS);
  const debouncedSearch = debounced.trim();
  const dates = range.from && range.to && range.from > range.to ? { from: '', to: '' } : range;
  const filters = JSON.stringify([debouncedSearch, type, dates.from, dates.to]);
  // The page belongs to the filters it was chosen under; new filters start at page 1.
  const [paging, setPaging] = useState({ filters, page: 1 });
  const page = paging.filters === filters ? paging.page : 1;
  const setPage = (next: number) => setPaging({ filters, page: next });
  const filtered = filters !== JSON.stringify(['', 'all', '', '']);
  const history = useHistory({ page, search: debouncedSearch, type, ...dates });
  const everything = useHistory({ page: 1, pageSize: 1, search: '', type: 'all' }, filtered);

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
    previous: () => setPage(page - 1),
    next: () => setPage(page + 1),
    history,
    items,
    totalText: exact ? String(total) : `${total.toLocaleString('en-IN')}+`,
    allTotal: filtered ? (everything.data?.total ?? total) : total,
    first: total === 0 ? 0 : (page - 1) * HISTORY_PAGE_SIZE + 1,
    last,
    hasNext: exact ? last < total : items.length === HISTORY_PAGE_SIZE,
  };
}
