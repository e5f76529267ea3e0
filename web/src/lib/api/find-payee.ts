/**
 * POST /api/transactions/find-payee: who a mobile number or a handle pays. The reply is a
 * name and what was typed, masked: the payment sends the same words again and the server finds
 * the account itself (transfer-to-payee).
 */
import type { FindPayeePayload, FoundPayee } from '../../../../contracts/payees.ts';
import { apiRequest, type ApiReply } from '../api-client.ts';

export type { FoundPayee };

export function findPayee(payee: string): Promise<ApiReply<FoundPayee>> {
  const body: FindPayeePayload = { payee };
  return apiRequest<FoundPayee>('/api/transactions/find-payee', { method: 'POST', body });
}
