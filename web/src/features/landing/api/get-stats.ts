/**
 * GET /api/stats (public): this instance's wallets, payments and money moved, for the
 * landing page's statistics band. The server caches the figures for 30 s; so does the page.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InstanceStats } from '../../../../../contracts/system.ts';
import { apiData } from '../../../lib/api-client.ts';

export type { InstanceStats };

export function fetchInstanceStats(): Promise<InstanceStats> {
  return apiData<InstanceStats>('/api/stats', { fallbackMessage: 'Failed to load the figures' });
}

export const instanceStatsQuery = queryOptions({
  queryKey: ['instance-stats'],
  queryFn: fetchInstanceStats,
  staleTime: 30_000,
});

export function useInstanceStats() {
  return useQuery(instanceStatsQuery);
}
