/**
 * The event-type lists agree with the union of ledger/events.ts: a type added to the union and
 * not to a list (or the other way round) fails the type check, and the values are checked too.
 */
import { describe, expect, it } from 'vitest';
import { LEDGER_EVENT_TYPES, POSTING_EVENT_TYPES, REVERSED_BY } from './event-types.ts';
import type { LedgerEvent, LedgerEventType, Posting } from './events.ts';

/** True only when A and B are the same union. */
type SameUnion<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const everyType: SameUnion<(typeof LEDGER_EVENT_TYPES)[number], LedgerEventType> = true;
const everyPostingType: SameUnion<
  (typeof POSTING_EVENT_TYPES)[number],
  Extract<LedgerEvent, { postings: Posting[] }>['type']
> = true;

describe('the event-type lists', () => {
  it('name every event type once, and exactly the types that carry postings', () => {
    expect(everyType && everyPostingType).toBe(true);
    expect(new Set(LEDGER_EVENT_TYPES).size).toBe(LEDGER_EVENT_TYPES.length);
    expect(new Set(POSTING_EVENT_TYPES).size).toBe(POSTING_EVENT_TYPES.length);
  });

  it('pair each reversible type with its reversal, both moving money', () => {
    for (const [original, reversal] of Object.entries(REVERSED_BY)) {
      expect(POSTING_EVENT_TYPES).toContain(original);
      expect(POSTING_EVENT_TYPES).toContain(reversal);
    }
  });
});
