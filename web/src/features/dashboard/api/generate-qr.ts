/**
 * GET /api/users/generate-qr: the user's own payment QR code as an image source (data URL).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiData } from '../../../lib/api-client.ts';

export async function fetchPaymentQr(): Promise<string> {
  const data = await apiData<string | { qr?: string; dataUrl?: string }>('/api/users/generate-qr', {
    fallbackMessage: 'Failed to generate QR code',
  });
  return typeof data === 'string' ? data : (data.qr ?? data.dataUrl ?? '');
}

export function paymentQrQuery(userId: string) {
  return queryOptions({ queryKey: ['payment-qr', userId], queryFn: fetchPaymentQr, staleTime: 2 * 60 * 60 * 1000 });
}

export function usePaymentQr(userId: string) {
  return useQuery(paymentQrQuery(userId));
}
