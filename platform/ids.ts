/**
 * The ids the server mints for money movements (transfers, deposits, money requests), approval
 * requests and HTTP requests (decision 0017; user ids, which are account numbers, stay random): UUIDv7,
 * time-ordered, so each new row's entries land on the right edge of the indexes keyed by them
 * (`ledger.events`' stream id, the read tables' keys) instead of on a random page of an index
 * larger than shared buffers - a random page costs a full-page image in the WAL after each
 * checkpoint. The 48-bit millisecond prefix tells when the object was created, which every
 * screen that shows the object already shows; the other 74 bits are random.
 */
import { v7 } from 'uuid';

export function newId(): string {
  return v7();
}
