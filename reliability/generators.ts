/**
 * fast-check generators of hostile requests: bodies built from the API's field names with
 * wrong-typed, huge, unicode, non-finite, negative, over-precise, SQL and HTML values; arrays
 * instead of objects; deep nesting; raw non-JSON; query strings; path parameters.
 */
import fc from 'fast-check';

export interface EvilRequest {
  /** The exact bytes sent (already serialised), or none. */
  body?: string;
  contentType?: string;
  query?: string;
}

/** Field names the contracts use, so generated bodies reach past "unknown field" checks. */
const FIELDS = [
  'amount',
  'receiver',
  'sender',
  'reference',
  'transactionPin',
  'paymentMethod',
  'upiDetails',
  'upiId',
  'cardDetails',
  'paymentMethodId',
  'depositId',
  'transactionId',
  'requestId',
  'status',
  'type',
  'email',
  'password',
  'confirmPassword',
  'newPassword',
  'currentPin',
  'newPin',
  'confirmPin',
  'code',
  'firstName',
  'lastName',
  'contactNo',
  'identification',
  'identificationNumber',
  'address',
  'selectedUser',
  'isVerified',
  'page',
  'pageSize',
  'search',
  'minPosition',
  'rememberMe',
  'description',
  'reason',
  'accountId',
  'position',
  'id',
  '__proto__',
  'constructor',
] as const;

const FRAGMENTS = [
  "' OR 1=1 --",
  "'; drop table ledger.events; --",
  '"; select pg_sleep(5); --',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\uFEFF',
  '\u202E',
  '𝕽𝖚𝖕𝖊𝖊',
  '₹१२३',
  '🙂'.repeat(50),
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e400',
  '0x10',
  '１２３',
  '9'.repeat(400),
  '0.001',
  '1.005',
  '-100',
  ' 100 ',
  '100abc',
  '{}',
  '[]',
  '$where',
  '${7*7}',
  '{{7*7}}',
] as const;

export function evilString(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(...FRAGMENTS),
    fc.uuid(),
    // Very long ids and huge strings (up to ~200 KB).
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.integer({ min: 200, max: 50_000 }))
      .map(([unit, times]) => unit.repeat(times).slice(0, 200_000)),
  );
}

function evilNumber(): fc.Arbitrary<number> {
  return fc.oneof(
    fc.double(), // NaN, Infinity, -0: JSON turns the first two into null
    fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
    fc.constantFrom(
      0,
      -0,
      -1,
      0.001,
      0.005,
      1.005,
      100.123456,
      1e21,
      -1e21,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 2,
      5e-324,
    ),
  );
}

function evilValue(): fc.Arbitrary<unknown> {
  const { tree } = fc.letrec<{ tree: unknown; leaf: unknown }>((tie) => ({
    leaf: fc.oneof(evilString(), evilNumber(), fc.boolean(), fc.constant(null)),
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('leaf'),
      fc.array(tie('tree'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom(...FIELDS), tie('tree'), { maxKeys: 3 }),
    ),
  }));
  return tree;
}

function deepNesting(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: 50, max: 5_000 }), fc.boolean())
    .map(([depth, arrays]) =>
      arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"amount":'.repeat(depth)}1${'}'.repeat(depth)}`,
    );
}

function rawText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '{"amount": 1e400}',
      '{"amount": -1e400, "receiver": 1e999}',
      '{"amount": NaN}',
      '{"amount": Infinity}',
      '{',
      '}',
      '{"a":',
      'null',
      '[]',
      '""',
      '0',
      'true',
      '{"__proto__": {"isAdmin": true}}',
      '{"constructor": {"prototype": {"x": 1}}}',
      '\u0000',
      '',
    ),
    fc.string({ maxLength: 200 }),
    deepNesting(),
  );
}

/** An object using the real field names, each with a hostile value, some fields missing. */
function evilObject(): fc.Arbitrary<Record<string, unknown>> {
  return fc.dictionary(fc.constantFrom(...FIELDS), evilValue(), { minKeys: 0, maxKeys: 8 });
}

export function evilBody(): fc.Arbitrary<EvilRequest> {
  const query = fc.option(
    fc
      .dictionary(
        fc.constantFrom(
          'page',
          'pageSize',
          'search',
          'minPosition',
          'status',
          'type',
          'after',
          'limit',
          'from',
          'to',
          'format',
        ),
        evilString(),
        { maxKeys: 3 },
      )
      .map((entries) => new URLSearchParams(entries).toString()),
    { nil: undefined },
  );
  const json = fc.oneof(
    { weight: 4, arbitrary: evilObject().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.array(evilObject(), { maxLength: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: evilValue().map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 2, arbitrary: rawText() },
  );
  return fc.record(
    {
      body: fc.option(json, { nil: undefined, freq: 6 }),
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant('application/json') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/json; charset=latin1',
            'multipart/form-data',
            'application/xml',
          ),
        },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      query,
    },
    { requiredKeys: ['body', 'contentType', 'query'] },
  );
}
