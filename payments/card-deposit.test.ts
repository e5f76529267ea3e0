/**
 * Card deposits end to end below HTTP: the real `stripe` SDK talks to the local fake Stripe
 * server, the ledger appends to a real Postgres, and webhooks are signed with the SDK's
 * test-header helper and verified with constructEvent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { createTestDatabase, eventCount, type TestDatabase } from '../test/database.ts';
import { createLedger, depositStream, rupees, type Ledger, type LedgerTables } from '../ledger/index.ts';
import {
  startFakeStripeServer,
  FAKE_SERVER_ERROR_PAYMENT_METHOD,
  type FakeStripeServer,
} from '../test/fake-stripe-server.ts';
import {
  createSandboxCardProvider,
  createStripeCardProvider,
  parseCardWebhook,
  sandboxPaymentMethodId,
  type CardProvider,
} from '../providers/card/index.ts';
import { startCardDeposit, type CardDepositOutcome } from './card-deposit.ts';
import { applyCardWebhookEvent } from './card-webhook.ts';

const WEBHOOK_SECRET = 'whsec_test_card_deposits';
const SECRET_KEY = 'sk_test_fake_card_deposits';

let testDb: TestDatabase<LedgerTables>;
let ledger: Ledger;
let fake: FakeStripeServer;
let stripe: CardProvider;

beforeAll(async () => {
  testDb = await createTestDatabase<LedgerTables>();
  ledger = createLedger({ db: testDb.db });
  fake = await startFakeStripeServer();
  stripe = createStripeCardProvider({ secretKey: SECRET_KEY, host: fake.host, port: fake.port, protocol: 'http' });
  for (const id of ['asha', 'ravi', 'meera', 'kiran', 'dev', 'neha', 'tara', 'sana'])
    await ledger.openWallet({ accountId: id, displayName: id }, { actorId: id });
});

afterAll(async () => {
  await fake.close();
  await testDb.drop();
});

async function balance(accountId: string): Promise<bigint | null> {
  const row = await testDb.db
    .selectFrom('ledger.accounts')
    .select('balance')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.balance;
}

async function eventTypes(depositId: string): Promise<string[]> {
  const rows = await testDb.db
    .selectFrom('ledger.events')
    .select('type')
    .where('stream_id', '=', depositStream(depositId))
    .orderBy('position')
    .execute();
  return rows.map((row) => row.type);
}

function deposit(
  walletId: string,
  paymentMethodId: string,
  idempotencyKey?: string,
  provider: CardProvider = stripe,
): Promise<CardDepositOutcome> {
  return startCardDeposit(
    { ledger, provider },
    {
      walletId,
      amountPaise: rupees(500),
      reference: 'card top up',
      paymentMethodId,
      customerEmail: `${walletId}@example.in`,
    },
    { actorId: walletId, idempotencyKey },
  );
}

function signed(body: string, secret = WEBHOOK_SECRET): string {
  return Stripe.webhooks.generateTestHeaderString({ payload: body, secret });
}

function expectStatus<S extends CardDepositOutcome['status']>(
  outcome: CardDepositOutcome,
  status: S,
): Extract<CardDepositOutcome, { status: S }> {
  expect(outcome.status).toBe(status);
  return outcome as Extract<CardDepositOutcome, { status: S }>;
}

describe('a card that pays at once', () => {
  it('charges INR paise through the SDK and credits the wallet exactly once, even when the request is retried', async () => {
    const first = expectStatus(await deposit('asha', 'pm_card_visa', 'key-asha-1'), 'credited');
    expect(first.checkpoint).toMatch(/\./);
    expect(await balance('asha')).toBe(rupees(500));

    const sent = fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payment_intents');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      authorization: `Bearer ${SECRET_KEY}`,
      idempotencyKey: `wallet-card-deposit-${first.depositId}`,
      params: {
        amount: '50000',
        currency: 'inr',
        confirm: 'true',
        payment_method: 'pm_card_visa',
        automatic_payment_methods: { enabled: 'false' },
        metadata: { depositId: first.depositId, walletId: 'asha', reference: 'card top up' },
        receipt_email: 'asha@example.in',
      },
    });

    const retried = expectStatus(await deposit('asha', 'pm_card_visa', 'key-asha-1'), 'credited');
    expect(retried).toMatchObject({ depositId: first.depositId, paymentId: first.paymentId, replayed: true });
    expect(fake.paymentIntents.size).toBe(1);
    expect(await balance('asha')).toBe(rupees(500));
    expect(await eventTypes(first.depositId)).toEqual(['DepositRequested', 'DepositSettled']);
  });

  it('treats the succeeded webhook that Stripe also sends for it as already done', async () => {
    const outcome = expectStatus(await deposit('asha', 'pm_card_visa'), 'credited');
    const body = fake.webhookBody('payment_intent.succeeded', outcome.paymentId);
    const event = parseCardWebhook(body, signed(body), WEBHOOK_SECRET);
    expect(await applyCardWebhookEvent({ ledger, provider: stripe }, event)).toEqual({
      result: 'already_processed',
      depositId: outcome.depositId,
    });
    expect(await balance('asha')).toBe(rupees(1000));
  });
});

describe('a card that is refused', () => {
  it.each([
    ['pm_card_chargeDeclined', 'card_declined', 'Card error: Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'Insufficient funds on your card.'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'Card error: Your card has expired.'],
    ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc', "Card error: Your card's security code is incorrect."],
    [
      'pm_does_not_exist',
      'invalid_payment_method',
      'Card error: These card details cannot be used. Please check them and try again.',
    ],
  ])('%s appends nothing and answers %s with the spec message', async (paymentMethodId, code, message) => {
    const before = await eventCount(testDb.db);
    expect(await deposit('ravi', paymentMethodId)).toEqual({ status: 'failed', code, message });
    expect(await eventCount(testDb.db)).toBe(before);
    expect(await balance('ravi')).toBe(0n);
  });

  it('answers the network message when Stripe fails or cannot be reached, appending nothing', async () => {
    const before = await eventCount(testDb.db);
    const noRetries = createStripeCardProvider({
      secretKey: SECRET_KEY,
      host: fake.host,
      port: fake.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const network = {
      status: 'failed',
      code: 'provider_unavailable',
      message: 'Network error. Please check your connection and try again.',
    };
    expect(await deposit('ravi', FAKE_SERVER_ERROR_PAYMENT_METHOD, undefined, noRetries)).toEqual(network);
    const unreachable = createStripeCardProvider({
      secretKey: SECRET_KEY,
      host: '127.0.0.1',
      port: 9,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    expect(await deposit('ravi', 'pm_card_visa', undefined, unreachable)).toEqual(network);
    expect(await eventCount(testDb.db)).toBe(before);
  });

  it('refuses a retry whose Idempotency-Key named another payment, as the ledger refuses a reused key, appending nothing', async () => {
    expectStatus(await deposit('ravi', 'pm_card_visa', 'key-ravi-reused'), 'credited');
    const before = await eventCount(testDb.db);
    const other = startCardDeposit(
      { ledger, provider: stripe },
      { walletId: 'ravi', amountPaise: rupees(501), reference: 'card top up', paymentMethodId: 'pm_card_visa' },
      { actorId: 'ravi', idempotencyKey: 'key-ravi-reused' },
    );
    await expect(other).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    expect(await eventCount(testDb.db)).toBe(before);
    expect(await balance('ravi')).toBe(rupees(500));
  });

  it('never charges a card for an amount the ledger would refuse', async () => {
    const before = fake.requests.length;
    await expect(
      startCardDeposit(
        { ledger, provider: stripe },
        { walletId: 'ravi', amountPaise: rupees(100_001), reference: 'too much', paymentMethodId: 'pm_card_visa' },
        { actorId: 'ravi' },
      ),
    ).rejects.toMatchObject({ code: 'limit_exceeded' });
    expect(fake.requests.length).toBe(before);
  });
});

describe('a card that needs 3-D Secure', () => {
  it('is recorded as pending with what the browser needs, and the signed succeeded webhook credits it once', async () => {
    const pending = expectStatus(await deposit('meera', 'pm_card_authenticationRequired', 'key-meera-1'), 'pending');
    const intent = fake.paymentIntents.get(pending.paymentId);
    expect(pending.clientSecret).toBe(intent?.client_secret);
    expect(pending.nextAction).toEqual({ type: 'use_stripe_sdk', redirectUrl: null });
    expect(await eventTypes(pending.depositId)).toEqual(['DepositRequested']);
    expect(await balance('meera')).toBe(0n);

    fake.finishAction(pending.paymentId, 'succeeded');
    const body = fake.webhookBody('payment_intent.succeeded', pending.paymentId);
    const header = signed(body);
    const event = parseCardWebhook(body, header, WEBHOOK_SECRET);
    expect(event).toMatchObject({
      type: 'payment_succeeded',
      paymentId: pending.paymentId,
      depositId: pending.depositId,
      walletId: 'meera',
      amountPaise: rupees(500),
    });
    expect(await applyCardWebhookEvent({ ledger, provider: stripe }, event)).toMatchObject({
      result: 'credited',
      depositId: pending.depositId,
    });
    expect(await balance('meera')).toBe(rupees(500));

    // Stripe delivers at least once: the same delivery again changes nothing.
    const replay = parseCardWebhook(Buffer.from(body), header, WEBHOOK_SECRET);
    expect(await applyCardWebhookEvent({ ledger, provider: stripe }, replay)).toEqual({
      result: 'already_processed',
      depositId: pending.depositId,
    });
    expect(await balance('meera')).toBe(rupees(500));
    expect(await eventTypes(pending.depositId)).toEqual(['DepositRequested', 'DepositSettled']);
  });

  it('credits only the payment it recorded: a succeeded webhook for another payment naming the deposit (another amount) credits nothing', async () => {
    const pending = expectStatus(await deposit('tara', 'pm_card_authenticationRequired', 'key-tara-1'), 'pending');
    const other = await stripe.charge({
      amountPaise: rupees(50_000),
      paymentMethodId: 'pm_card_visa',
      depositId: pending.depositId,
      walletId: 'tara',
      reference: 'card top up',
      idempotencyKey: 'other-payment-tara',
    });
    expect(other.status).toBe('succeeded');
    if (other.status !== 'succeeded') return;
    const forged = fake.webhookBody('payment_intent.succeeded', other.paymentId);
    expect(
      await applyCardWebhookEvent(
        { ledger, provider: stripe },
        parseCardWebhook(forged, signed(forged), WEBHOOK_SECRET),
      ),
    ).toEqual({ result: 'payment_mismatch', depositId: pending.depositId });
    expect(await balance('tara')).toBe(0n);
    expect(await eventTypes(pending.depositId)).toEqual(['DepositRequested']);

    fake.finishAction(pending.paymentId, 'succeeded');
    const real = fake.webhookBody('payment_intent.succeeded', pending.paymentId);
    expect(
      await applyCardWebhookEvent({ ledger, provider: stripe }, parseCardWebhook(real, signed(real), WEBHOOK_SECRET)),
    ).toMatchObject({ result: 'credited' });
    expect(await balance('tara')).toBe(rupees(500));
  });

  it('records the failure from the signed payment_failed webhook, once, with no money moved', async () => {
    const pending = expectStatus(await deposit('kiran', 'pm_card_authenticationRequired'), 'pending');
    fake.finishAction(pending.paymentId, 'failed');
    const body = fake.webhookBody('payment_intent.payment_failed', pending.paymentId);
    const event = parseCardWebhook(body, signed(body), WEBHOOK_SECRET);
    expect(event).toMatchObject({
      type: 'payment_failed',
      depositId: pending.depositId,
      reason: 'authentication_required',
    });
    expect(await applyCardWebhookEvent({ ledger, provider: stripe }, event)).toMatchObject({
      result: 'failure_recorded',
    });
    expect(await applyCardWebhookEvent({ ledger, provider: stripe }, event)).toEqual({
      result: 'already_processed',
      depositId: pending.depositId,
    });
    expect(await eventTypes(pending.depositId)).toEqual(['DepositRequested', 'DepositFailed']);
    expect(await balance('kiran')).toBe(0n);
    // Closed at Stripe before the failure was recorded: it can never be paid later.
    expect(fake.paymentIntents.get(pending.paymentId)?.status).toBe('canceled');
    expect(fake.requests.some((request) => request.path === `/v1/payment_intents/${pending.paymentId}/cancel`)).toBe(
      true,
    );
  });

  it('leaves the deposit pending when a failed attempt was followed by success, and credits on the success webhook', async () => {
    const pending = expectStatus(await deposit('kiran', 'pm_card_authenticationRequired'), 'pending');
    fake.finishAction(pending.paymentId, 'failed');
    const failedBody = fake.webhookBody('payment_intent.payment_failed', pending.paymentId);
    // The customer confirmed again and paid before the failure webhook was handled.
    fake.finishAction(pending.paymentId, 'succeeded');
    const failed = parseCardWebhook(failedBody, signed(failedBody), WEBHOOK_SECRET);
    expect(await applyCardWebhookEvent({ ledger, provider: stripe }, failed)).toEqual({
      result: 'left_pending',
      depositId: pending.depositId,
    });
    expect(await eventTypes(pending.depositId)).toEqual(['DepositRequested']);

    const succeededBody = fake.webhookBody('payment_intent.succeeded', pending.paymentId);
    const succeeded = parseCardWebhook(succeededBody, signed(succeededBody), WEBHOOK_SECRET);
    expect(await applyCardWebhookEvent({ ledger, provider: stripe }, succeeded)).toMatchObject({ result: 'credited' });
    expect(await balance('kiran')).toBe(rupees(500));
  });
});

describe('webhooks', () => {
  it('refuses a body whose signature does not verify, and appends nothing', async () => {
    const pending = expectStatus(await deposit('dev', 'pm_card_authenticationRequired'), 'pending');
    fake.finishAction(pending.paymentId, 'succeeded');
    const body = fake.webhookBody('payment_intent.succeeded', pending.paymentId);
    const before = await eventCount(testDb.db);

    expect(parseCardWebhook(body, signed(body, 'whsec_someone_else'), WEBHOOK_SECRET)).toMatchObject({
      type: 'rejected',
    });
    const tampered = body.replace('"amount":50000', '"amount":5000000');
    expect(tampered).not.toBe(body);
    expect(parseCardWebhook(tampered, signed(body), WEBHOOK_SECRET)).toMatchObject({ type: 'rejected' });
    expect(parseCardWebhook(body, undefined, WEBHOOK_SECRET)).toMatchObject({ type: 'rejected' });
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(parseCardWebhook(body, stale, WEBHOOK_SECRET)).toMatchObject({ type: 'rejected' });

    expect(
      await applyCardWebhookEvent(
        { ledger, provider: stripe },
        parseCardWebhook(tampered, signed(body), WEBHOOK_SECRET),
      ),
    ).toEqual({ result: 'nothing_to_do', depositId: null });
    expect(await eventCount(testDb.db)).toBe(before);
    expect(await balance('dev')).toBe(0n);
  });

  it('credits a paid card the server never got to record (it stopped after the charge)', async () => {
    const charge = await stripe.charge({
      amountPaise: rupees(750),
      paymentMethodId: 'pm_card_visa',
      depositId: 'card-lost-1',
      walletId: 'neha',
      reference: 'lost response',
      idempotencyKey: 'lost-1',
    });
    expect(charge.status).toBe('succeeded');
    if (charge.status !== 'succeeded') return;
    const body = fake.webhookBody('payment_intent.succeeded', charge.paymentId);
    expect(
      await applyCardWebhookEvent({ ledger, provider: stripe }, parseCardWebhook(body, signed(body), WEBHOOK_SECRET)),
    ).toMatchObject({ result: 'credited', depositId: 'card-lost-1' });
    expect(await balance('neha')).toBe(rupees(750));
    expect(await eventTypes('card-lost-1')).toEqual(['DepositRequested', 'DepositSettled']);
  });

  it('has nothing to undo for the failed webhook of a card declined at once', async () => {
    const before = await eventCount(testDb.db);
    expect((await deposit('neha', 'pm_card_chargeDeclined')).status).toBe('failed');
    const declinedIntent = [...fake.paymentIntents.values()].at(-1);
    if (!declinedIntent) throw new Error('the fake recorded no payment intent');
    const body = fake.webhookBody('payment_intent.payment_failed', declinedIntent.id);
    const event = parseCardWebhook(body, signed(body), WEBHOOK_SECRET);
    expect(event).toMatchObject({ type: 'payment_failed', reason: 'card_declined' });
    expect(await applyCardWebhookEvent({ ledger, provider: stripe }, event)).toMatchObject({ result: 'nothing_to_do' });
    expect(await eventCount(testDb.db)).toBe(before);
  });

  it('ignores event types it does not settle', () => {
    const body = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    expect(parseCardWebhook(body, signed(body), WEBHOOK_SECRET)).toMatchObject({
      type: 'ignored',
      eventId: 'evt_other',
    });
  });
});

describe('the sandbox provider', () => {
  it('credits a wallet through startCardDeposit and declines without appending', async () => {
    const deps = { ledger, provider: createSandboxCardProvider() };
    const input = { walletId: 'sana', amountPaise: rupees(250), reference: 'sandbox top up' };
    const credited = await startCardDeposit(
      deps,
      { ...input, paymentMethodId: sandboxPaymentMethodId('4242424242424242') },
      { actorId: 'sana', idempotencyKey: 's-1' },
    );
    expect(credited).toMatchObject({ status: 'credited', replayed: false });
    const replayed = await startCardDeposit(
      deps,
      { ...input, paymentMethodId: sandboxPaymentMethodId('4242424242424242') },
      { actorId: 'sana', idempotencyKey: 's-1' },
    );
    expect(replayed).toMatchObject({ status: 'credited', replayed: true });
    expect(await balance('sana')).toBe(rupees(250));

    const refused = await startCardDeposit(
      deps,
      { ...input, paymentMethodId: sandboxPaymentMethodId('4000000000009995') },
      { actorId: 'sana' },
    );
    expect(refused).toEqual({
      status: 'failed',
      code: 'insufficient_funds',
      message: 'Insufficient funds on your card.',
    });
    expect(await balance('sana')).toBe(rupees(250));
    if (credited.status !== 'credited') return;
    const events = await testDb.db
      .selectFrom('ledger.events')
      .select(['type', 'data'])
      .where('stream_id', '=', depositStream(credited.depositId))
      .execute();
    expect(events.map((event) => event.type)).toEqual(['DepositRequested', 'DepositSettled']);
    expect(events[0]?.data).toMatchObject({
      method: 'card',
      details: { provider: 'sandbox', paymentId: credited.paymentId },
    });
  });
});
