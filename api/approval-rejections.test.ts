/**
 * admin-actions/' refusals (approval requests) reach clients exactly as they did when the routes
 * raised generic ApiErrors: same status, same message, same `code`.
 */
import { describe, expect, it } from 'vitest';
import { APPROVAL_REJECTION_CODES, ApprovalRejection } from '../admin-actions/index.ts';
import { toEnvelopeError } from './envelope.ts';

describe('approval rejections in the envelope', () => {
  it.each([
    ['approval_not_found', 404, 'not_found', 'Approval request not found'],
    ['approval_already_approved', 409, 'conflict', 'This request has already been approved'],
    ['approval_already_rejected', 409, 'conflict', 'This request has already been rejected'],
    [
      'approval_changed_concurrently',
      409,
      'conflict',
      'The approval request changed at the same time. Please try again.',
    ],
    ['approver_is_requester', 403, 'forbidden', 'A second admin must approve this request'],
    ['dispute_not_found', 404, 'not_found', 'Dispute not found'],
  ] as const)('%s -> %i %s', (code, status, publicCode, message) => {
    expect(toEnvelopeError(new ApprovalRejection(code, 'for the log'))).toEqual({
      status,
      body: { success: false, message, code: publicCode },
    });
  });

  it('covers every code', () => {
    expect(APPROVAL_REJECTION_CODES).toHaveLength(6);
  });
});
