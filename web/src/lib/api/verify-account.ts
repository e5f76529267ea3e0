/**
 * POST /api/transactions/verify-account: confirms a recipient before a transfer, a scan to
 * pay or a money request. The name may come as `name` or as first and last name.
 */
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { verifyAccountSchema } from '../../../../contracts/transactions.ts';
import { apiRequest, type ApiReply } from '../api-client.ts';

export interface VerifiedAccount {
  name: string;
  accountNumber: string;
  bankName?: string;
}

interface RawVerifiedAccount {
  name?: string;
  firstName?: string;
  lastName?: string;
  accountNumber: string;
  bankName?: string;
}

export function normaliseAccount(raw: RawVerifiedAccount): VerifiedAccount {
  const name = raw.name ?? `${raw.firstName ?? ''} ${raw.lastName ?? ''}`.trim();
  return { name, accountNumber: raw.accountNumber, ...(raw.bankName ? { bankName: raw.bankName } : {}) };
}

export async function verifyAccount(receiver: string): Promise<ApiReply<VerifiedAccount>> {
  const body: z.input<typeof verifyAccountSchema> = { receiver };
  const reply = await apiRequest<RawVerifiedAccount>('/api/transactions/verify-account', { method: 'POST', body });
  return { ...reply, data: reply.success && reply.data ? normaliseAccount(reply.data) : undefined };
}

export function useVerifyAccount() {
  return useMutation({ mutationFn: verifyAccount });
}
