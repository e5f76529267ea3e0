/**
 * POST /api/transactions/get-all-transactions-by-user: the signed-in user's history, paged
 * and searched on the server, waiting for the newest checkpoint (read-your-writes).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  HISTORY_PAGE_SIZE,
  type historyQuerySchema,
  type TransactionRecord,
} from '../../../../../contracts/transactions.ts';
import { apiData } from '../../../lib/api-client.ts';
import { latestCheckpoint } from '../../../lib/checkpoint.ts';

export type { TransactionRecord };

/** The request body, as the server's history schema reads it. */
export type HistoryBody = z.input<typeof historyQuerySchema>;
export type HistoryType = NonNullable<HistoryBody['type']>;

export interface HistoryQuery {
  page: number;
  pageSize?: number;
  search: string;
  type: HistoryType;
  /** India Standard Time days (YYYY-MM-DD), both included; '' or absent: no limit. */
  from?: string;
  to?: string;
}

export interface HistoryPage {
  items: TransactionRecord[];
  total: number;
  /** False when a search matched more than the server counts: `total` is "at least". */
  totalExact?: boolean;
  page: number;
  pageSize: number;
}

/** `signal` aborts the request when the query is replaced (a new search) or cancelled. */
export async function fetchHistory(query: HistoryQuery, signal?: AbortSignal): Promise<HistoryPage> {
  const pageSize = query.pageSize ?? HISTORY_PAGE_SIZE;
  const minPosition = latestCheckpoint();
  const body: HistoryBody = {
    page: query.page,
    pageSize,
    type: query.type,
    ...(query.search.trim() ? { search: query.search.trim() } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
    ...(minPosition ? { minPosition } : {}),
  };
  const data = await apiData<HistoryPage | TransactionRecord[]>('/api/transactions/get-all-transactions-by-user', {
    method: 'POST',
    body,
    signal,
    fallbackMessage: 'Failed to fetch transactions',
  });
  // A server answering the spec's plain list is paged here, so the page still works.
  if (Array.isArray(data)) {
    const start = (query.page - 1) * pageSize;
    return { items: data.slice(start, start + pageSize), total: data.length, page: query.page, pageSize };
  }
  return data;
}

export function historyQuery(query: HistoryQuery) {
  return queryOptions({
    queryKey: ['ledger', 'history', query],
    queryFn: ({ signal }) => fetchHistory(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useHistory(query: HistoryQuery, enabled = true) {
  return useQuery({ ...historyQuery(query), enabled });
}
