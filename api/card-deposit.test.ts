/**
 * Card deposits over HTTP with the real stripe SDK against a local fake Stripe server:
 * success credits once, a decline appends nothing, a 3-D Secure payment is settled by the
 * signed webhook exactly once however often it is delivered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { registeredUser, startHarness, type Harness } from '../test/app-harness.ts';
import { createCardProvider } from '../providers/card/index.ts';
import { startFakeStripeServer, type FakeStripeServer } from '../test/fake-stripe-server.ts';
import { CARD_WEBHOOK_PATH } from '../contracts/transactions.ts';

const WEBHOOK_SECRET = 'whsec_test_0123456789';
let harness: Harness;
let stripe: FakeStripeServer;
let user: { id: string; token: string };

beforeAll(async () => {
  stripe = await startFakeStripeServer();
  const card = createCardProvider(
    { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    { stripeApi: { host: stripe.host, port: stripe.port, protocol: 'http' } },
  );
  harness = await startHarness({}, { card });
  const registered = await registeredUser(harness, 'card@example.in');
  user = { id: registered.id, token: registered.token ?? '' };
}, 60_000);

afterAll(async () => {
  await harness.close();
  await stripe.close();
});

const deposit = (paymentMethodId: string, amount = 250) =>
  harness.call({
    method: 'POST',
    url: '/api/transactions/deposit-funds',
    headers: { authorization: `Bearer ${user.token}` },
    payload: {
      amount,
      reference: 'card top up',
      transactionPin: '1234',
      paymentMethod: 'card',
      paymentMethodId,
      status: 'success',
    },
  });

const balance = async () =>
  (
    await sql<{ balance: bigint }>`select balance from ledger.accounts where id = ${user.id}`.execute(
      harness.database.db,
    )
  ).rows[0]?.balance;
const settledCount = async (depositId: string) =>
  (
    await sql<{
      n: number;
    }>`select count(*)::int as n from ledger.events where stream_id = ${`deposit-${depositId}`} and type = 'DepositSettled'`.execute(
      harness.database.db,
    )
  ).rows[0]?.n;

function deliver(body: string, signature?: string) {
  return harness.call({
    method: 'POST',
    url: CARD_WEBHOOK_PATH,
    headers: {
      'content-type': 'application/json',
      'stripe-signature':
        signature ?? Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }),
    },
    payload: body,
  });
}

describe('card deposits through Stripe', () => {
  it('credits a succeeded payment in INR paise', async () => {
    const before = await balance();
    const response = await deposit('pm_card_visa', 250.75);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Card deposit successful! Your account has been credited.',
    });
    expect(await balance()).toBe((before ?? 0n) + 25_075n);
    const charge = stripe.requests.at(-1);
    expect(charge?.params).toMatchObject({ amount: '25075', currency: 'inr', payment_method: 'pm_card_visa' });
  });

  it('refuses a declined card with the spec message and appends nothing', async () => {
    const before = await balance();
    const response = await deposit('pm_card_chargeDeclined');
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ success: false, message: 'Card error: Your card was declined.' });
    expect(await balance()).toBe(before);
  });

  it('leaves a 3-D Secure payment pending, then the signed webhook settles it exactly once', async () => {
    const before = await balance();
    const response = await deposit('pm_card_authenticationRequired', 99);
    expect(response.statusCode).toBe(202);
    const data = response.json().data as { transactionId: string; status: string; clientSecret: string };
    expect(data.status).toBe('requires_action');
    expect(data.clientSecret).toBeTruthy();
    expect(await balance()).toBe(before);

    const paymentId =
      [...stripe.paymentIntents.values()].find((intent) => intent.metadata?.depositId === data.transactionId)?.id ?? '';
    stripe.finishAction(paymentId, 'succeeded');
    const body = stripe.webhookBody('payment_intent.succeeded', paymentId);
    expect((await deliver(body, 't=1,v1=forged')).statusCode).toBe(400);
    expect(await balance()).toBe(before);

    for (let delivery = 0; delivery < 3; delivery++) expect((await deliver(body)).statusCode).toBe(200);
    expect(await balance()).toBe((before ?? 0n) + 9_900n);
    expect(await settledCount(data.transactionId)).toBe(1);
  });
});
