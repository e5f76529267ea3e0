/**
 * GET /api/admin/projections, POST and GET /api/admin/projections/:name/replay (admin):
 * projection status, starting a replay job, and polling its progress until it ends.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiData, apiRequest, type ApiReply } from '../../../lib/api-client.ts';
import type { ProjectionsOverview, ReplayRun } from './types.ts';

export const REPLAY_POLL_MS = 500;

export function fetchProjections(): Promise<ProjectionsOverview> {
  return apiData<ProjectionsOverview>('/api/admin/projections', {
    fallbackMessage: 'Failed to fetch projection status',
  });
}

export const projectionsQuery = queryOptions({ queryKey: ['admin', 'projections'], queryFn: fetchProjections });

export function useProjections() {
  return useQuery(projectionsQuery);
}

export function startReplay(input: { name: string; reason?: string }): Promise<ApiReply<ReplayRun>> {
  return apiRequest(`/api/admin/projections/${encodeURIComponent(input.name)}/replay`, {
    method: 'POST',
    body: input.reason ? { reason: input.reason } : {},
  });
}

export function useStartReplay() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: startReplay,
    onSuccess: async (reply, input) => {
      if (reply.success) client.setQueryData(replayQuery(input.name, true).queryKey, reply.data);
    },
  });
}

export function fetchReplay(name: string): Promise<ReplayRun> {
  return apiData<ReplayRun>(`/api/admin/projections/${encodeURIComponent(name)}/replay`, {
    fallbackMessage: 'Failed to fetch replay progress',
  });
}

export function isFinished(run: ReplayRun | undefined): boolean {
  return run?.state === 'done' || run?.state === 'failed';
}

/** Polls while the run is queued or running; stops once it is done or failed. */
export function replayQuery(name: string, enabled: boolean) {
  return queryOptions({
    queryKey: ['admin', 'replay', name],
    queryFn: () => fetchReplay(name),
    enabled,
    refetchInterval: (query) => (isFinished(query.state.data) ? false : REPLAY_POLL_MS),
  });
}

export function useReplayProgress(name: string, enabled: boolean) {
  return useQuery(replayQuery(name, enabled));
}
