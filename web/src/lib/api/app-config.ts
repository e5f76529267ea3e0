/**
 * GET /api/config: what the server is configured with (Google sign-in on or off, card
 * provider and its publishable key).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiData } from '../api-client.ts';

export interface AppConfig {
  googleSignIn: boolean;
  cardProvider: 'stripe' | 'sandbox';
  stripePublishableKey?: string;
}

const FALLBACK: AppConfig = { googleSignIn: false, cardProvider: 'sandbox' };

export async function fetchAppConfig(): Promise<AppConfig> {
  try {
    return await apiData<AppConfig>('/api/config', { fallbackMessage: 'Failed to load configuration' });
  } catch {
    return FALLBACK;
  }
}

export const appConfigQuery = queryOptions({ queryKey: ['app-config'], queryFn: fetchAppConfig, staleTime: Infinity });

export function useAppConfig() {
  return useQuery(appConfigQuery);
}
