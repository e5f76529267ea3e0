/**
 * Checkpoint tokens (`<tx_id>.<position>`): what parses is what Postgres can hold. tx_id is an
 * xid8 and position a bigint; a component above 2^63-1 is not a checkpoint (issue 39: a
 * `Last-Event-ID` of twenty nines reached Postgres and failed there with out of range).
 */
import { expect, it } from 'vitest';
import { formatCheckpoint, isCheckpointToken, parseCheckpoint } from './checkpoint.ts';

const MAX = '9223372036854775807';

it('accepts tokens up to 2^63-1 in each component, and round-trips them', () => {
  for (const token of ['0.0', '812.3', `${MAX}.${MAX}`, `00000000000000000001.${MAX}`]) {
    expect(isCheckpointToken(token), token).toBe(true);
    expect(formatCheckpoint(parseCheckpoint(token)), token).toBe(token.replace(/^0+(?=\d)/, ''));
  }
  expect(parseCheckpoint(`${MAX}.${MAX}`)).toEqual({ txId: 2n ** 63n - 1n, position: 2n ** 63n - 1n });
});

it('refuses a component above 2^63-1 (and anything not <digits>.<digits>)', () => {
  for (const token of [
    '9223372036854775808.0',
    '0.9223372036854775808',
    '99999999999999999999.1',
    '1.99999999999999999999',
    '18446744073709551616.0',
    '99999999999999999999',
    '1.2.3',
    '-1.2',
    '',
  ]) {
    expect(isCheckpointToken(token), token).toBe(false);
    expect(() => parseCheckpoint(token), token).toThrow(/not a checkpoint token/);
  }
});
