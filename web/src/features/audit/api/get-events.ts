/**
 * GET /api/admin/events (admin): the ledger explorer - events by stream, type, actor and
 * time range, keyset-paged by position - and GET /api/admin/events/:position (one event
 * with its postings).
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiData } from '../../../lib/api-client.ts';
import { dayToIso, type EventDetail, type RawEventPage } from './types.ts';

export interface ExplorerFilters {
  stream: string;
  type: string;
  actor: string;
  from: string;
  to: string;
}

const PAGE_ROWS = 50;

export function fetchEvents(filters: ExplorerFilters, after: string | undefined): Promise<RawEventPage> {
  return apiData<RawEventPage>('/api/admin/events', {
    query: {
      stream: filters.stream.trim() || undefined,
      type: filters.type || undefined,
      actor: filters.actor.trim() || undefined,
      from: dayToIso(filters.from),
      to: dayToIso(filters.to, true),
      after,
      limit: String(PAGE_ROWS),
    },
    fallbackMessage: 'Failed to fetch events',
  });
}

export function eventsQuery(filters: ExplorerFilters) {
  return infiniteQueryOptions({
    queryKey: ['ledger', 'admin', 'events', filters],
    queryFn: ({ pageParam }) => fetchEvents(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextAfter ?? undefined,
  });
}

export function useEvents(filters: ExplorerFilters) {
  return useInfiniteQuery(eventsQuery(filters));
}

export function fetchEvent(position: string): Promise<EventDetail> {
  return apiData<EventDetail>(`/api/admin/events/${encodeURIComponent(position)}`, {
    fallbackMessage: 'Failed to fetch the event',
  });
}

export function eventQuery(position: string | null) {
  return queryOptions({
    queryKey: ['ledger', 'admin', 'event', position],
    queryFn: () => fetchEvent(position ?? ''),
    enabled: position !== null,
  });
}

export function useEvent(position: string | null) {
  return useQuery(eventQuery(position));
}
