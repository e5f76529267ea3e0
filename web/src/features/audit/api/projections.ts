/**
 * GET /api/admin/projections, POST and GET /api/admin/projections/:name/replay (admin):
 * projection status, starting a replay job, and its progress: no polling, the live updates
 * stream writes each change of a replay into its query (app/live-cache.ts).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiData, apiRequest, type ApiReply } from '../../../lib/api-client.ts';
import type { ProjectionsOverview, ReplayRun } from './types.ts';

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
      // A progress event of the stream may have come first: a later state of the same run stays.
      if (reply.success)
        client.setQueryData<ReplayRun>(replayQuery(input.name, true).queryKey, (current) =>
          current?.id === reply.data?.id && current?.state !== 'queued' ? current : reply.data,
        );
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

/** Fetched once; the stream's `replay` events keep it current until the run ends. */
export function replayQuery(name: string, enabled: boolean) {
  return queryOptions({
    queryKey: ['admin', 'replay', name],
    queryFn: () => fetchReplay(name),
    enabled,
    staleTime: Infinity,
  });
}

export function useReplayProgress(name: string, enabled: boolean) {
  return useQuery(replayQuery(name, enabled));
}
