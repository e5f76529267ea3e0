/**
 * The identity check before an activation (issue 41 item 2), over HTTP on a real database:
 * every user record masks the ID number but for its last four (the customer's own, the
 * admin's list, the activation's reply); the full number is answered only by the admins'
 * reveal, and each reveal is in the audit trail with who and when; an activation with the
 * document check confirmed records who checked what, one explicitly not confirmed is refused
 * and changes nothing, and the spec's client (no confirmation field) still activates, recorded
 * as unconfirmed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskIdentificationNumber } from '../contracts/identity-check.ts';
import type { AdminActionRecord } from '../contracts/admin.ts';
import { ADMIN, registeredUser, signIn, startHarness, VALID_REGISTRATION, type Harness } from '../test/app-harness.ts';

const FULL_NUMBER = VALID_REGISTRATION.identificationNumber;
const MASKED = 'XXXX XXXX 9012';

let harness: Harness;
let adminToken: string;

beforeAll(async () => {
  harness = await startHarness();
  adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
}, 120_000);

afterAll(async () => {
  await harness.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function listedUser(email: string): Promise<Record<string, unknown>> {
  const response = await harness.call({ method: 'GET', url: '/api/users/get-all-users', headers: bearer(adminToken) });
  expect(response.statusCode).toBe(200);
  const user = (response.json().data as Record<string, unknown>[]).find((candidate) => candidate['email'] === email);
  expect(user, email).toBeDefined();
  return user ?? {};
}

function setStatus(userId: string, extra: Record<string, unknown>) {
  return harness.call({
    method: 'POST',
    url: '/api/users/update-user-verified-status',
    headers: bearer(adminToken),
    payload: { selectedUser: userId, isVerified: true, ...extra },
  });
}

async function auditEntries(action: string, target: string): Promise<AdminActionRecord[]> {
  const response = await harness.call({
    method: 'GET',
    url: `/api/admin/audit-trail?action=${action}&limit=100`,
    headers: bearer(adminToken),
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as { items: AdminActionRecord[] }).items.filter((item) => item.target === target);
}

function reveal(userId: string, token = adminToken) {
  return harness.call({
    method: 'POST',
    url: `/api/admin/users/${encodeURIComponent(userId)}/identification/reveal`,
    headers: bearer(token),
  });
}

describe('masking', () => {
  it('masks all but the last four letters and digits, keeping the separators; a short number keeps at most half', () => {
    expect(maskIdentificationNumber('1234 5678 9012')).toBe(MASKED);
    expect(maskIdentificationNumber('ABCDE1234F')).toBe('XXXXXX234F');
    expect(maskIdentificationNumber('K-1234567')).toBe('X-XXX4567');
    expect(maskIdentificationNumber('AB12')).toBe('XX12');
    expect(maskIdentificationNumber('123')).toBe('XX3');
  });
});

describe('the identity check', () => {
  let customerId = '';

  it('shows the admin the ID type, the masked number, address and contact - and never the full number', async () => {
    const pending = await registeredUser(harness, 'asha.idcheck@example.in', { activate: false });
    customerId = pending.id;
    const user = await listedUser('asha.idcheck@example.in');
    expect(user).toMatchObject({
      identification: 'Aadhaar Card',
      identificationNumber: MASKED,
      address: VALID_REGISTRATION.address,
      contactNo: VALID_REGISTRATION.contactNo,
      isVerified: false,
    });
  });

  it('refuses an activation with the document check not confirmed, and changes nothing', async () => {
    const refused = await setStatus(customerId, { documentChecked: false });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      success: false,
      code: 'document_check_required',
      message: 'Confirm that you have checked the identity document before activating',
    });
    expect(await listedUser('asha.idcheck@example.in')).toMatchObject({ isVerified: false });
    expect(await auditEntries('activate', customerId)).toEqual([]);
  });

  it('activates with the check confirmed and records who checked what (the number masked)', async () => {
    const activated = await setStatus(customerId, { documentChecked: true });
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json().data).toMatchObject({ isVerified: true, identificationNumber: MASKED });
    const [entry, ...others] = await auditEntries('activate', customerId);
    expect(others).toEqual([]);
    const adminId = (await listedUser(ADMIN.email))['_id'];
    expect(entry).toMatchObject({
      actorId: adminId,
      details: {
        wasVerified: false,
        documentCheck: {
          confirmed: true,
          statement: 'I have checked the identity document against these details',
          name: 'Asha Verma',
          identification: 'Aadhaar Card',
          identificationNumber: MASKED,
          address: VALID_REGISTRATION.address,
          contactNo: VALID_REGISTRATION.contactNo,
        },
      },
    });
  });

  it('shows the customer their own number masked', async () => {
    const token = await signIn(harness, 'asha.idcheck@example.in', VALID_REGISTRATION.password);
    const info = await harness.call({ method: 'POST', url: '/api/users/get-user-info', headers: bearer(token) });
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toMatchObject({ identification: 'Aadhaar Card', identificationNumber: MASKED });
    // The reveal is for admins only.
    const refused = await reveal(customerId, token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, code: 'admin_only' });
  });

  it('reveals the full number to an admin and writes the reveal to the audit trail', async () => {
    expect(await auditEntries('reveal_identification', customerId)).toEqual([]);
    const revealed = await reveal(customerId);
    expect(revealed.statusCode, revealed.body).toBe(200);
    expect(revealed.headers['cache-control']).toBe('no-store');
    expect(revealed.json()).toMatchObject({
      success: true,
      data: { userId: customerId, identification: 'Aadhaar Card', identificationNumber: FULL_NUMBER },
    });
    const entries = await auditEntries('reveal_identification', customerId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: (await listedUser(ADMIN.email))['_id'],
      details: { identification: 'Aadhaar Card', identificationNumber: MASKED },
    });
    expect(JSON.stringify(entries)).not.toContain(FULL_NUMBER);
  });

  it('answers 404 for an unknown user and records nothing', async () => {
    const missing = await reveal('no-such-user');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, message: 'User not found' });
    expect(await auditEntries('reveal_identification', 'no-such-user')).toEqual([]);
  });

  it("still activates for the spec's client (no confirmation field), recorded as unconfirmed", async () => {
    const spec = await registeredUser(harness, 'ravi.idcheck@example.in', { activate: false });
    const activated = await setStatus(spec.id, {});
    expect(activated.statusCode, activated.body).toBe(200);
    const [entry] = await auditEntries('activate', spec.id);
    expect(entry?.details).toMatchObject({ documentCheck: { confirmed: false } });
  });

  it('never sent the full number in any reply but the reveal', () => {
    const leaks = (harness.replies as { message?: string }[]).filter(
      (reply) => JSON.stringify(reply).includes(FULL_NUMBER) && reply.message !== 'Identification revealed',
    );
    expect(leaks).toEqual([]);
  });
});
