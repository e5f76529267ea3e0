/**
 * Ids the server makes for things that key growing tables (transfers, deposits, money
 * requests, users): UUIDv7, whose first 48 bits are the time in milliseconds. New keys land
 * at the right edge of the btree indexes that hold them (events by stream, history, users)
 * instead of on a random page each, so an insert touches pages already in memory as the
 * tables grow. The ids still reveal nothing but their time of creation, which the rows that
 * hold them record anyway.
 */
import { v7 as uuidv7 } from 'uuid';

export function newId(): string {
  return uuidv7();
}
