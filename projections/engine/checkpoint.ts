/**
 * A position in the projectors' read order: the (tx_id, position) pair of an event. Events
 * are read in (tx_id, position) order behind the snapshot xmin, so a checkpoint (T, P)
 * covers every event whose pair is <= (T, P). The token form `<tx_id>.<position>` is what
 * ledger commands return as `result.checkpoint` (read-your-writes).
 */
export interface Checkpoint {
  txId: bigint;
  position: bigint;
}

export const START: Checkpoint = { txId: 0n, position: 0n };

const TOKEN = /^(\d{1,20})\.(\d{1,20})$/;

/**
 * The largest component a checkpoint can have: position is a bigint, and tx_id (an xid8) is
 * held to the same bound (a real one is an epoch-extended transaction id, nowhere near it).
 * Twenty digits reach 10^20 - 1: without this check a client's `Last-Event-ID` of twenty
 * nines parsed, and Postgres failed on it ("out of range") on every attempt (issue 39). Here,
 * where a token is validated, so that every caller of isCheckpointToken gets the bound.
 */
const MAX_COMPONENT = 2n ** 63n - 1n;

/** The checkpoint a token names, or undefined when it is not `<tx_id>.<position>` within range. */
function readToken(token: string): Checkpoint | undefined {
  const match = TOKEN.exec(token.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const checkpoint = { txId: BigInt(match[1]), position: BigInt(match[2]) };
  return checkpoint.txId <= MAX_COMPONENT && checkpoint.position <= MAX_COMPONENT ? checkpoint : undefined;
}

export function parseCheckpoint(token: string): Checkpoint {
  const checkpoint = readToken(token);
  if (!checkpoint)
    throw new Error(`not a checkpoint token: "${token}" (expected <tx_id>.<position>, each at most 2^63-1)`);
  return checkpoint;
}

/** True when parseCheckpoint accepts the token: validate untrusted input with this. */
export function isCheckpointToken(token: string): boolean {
  return readToken(token) !== undefined;
}

export function formatCheckpoint(checkpoint: Checkpoint): string {
  return `${checkpoint.txId}.${checkpoint.position}`;
}

/** Negative when a comes first in read order, zero when equal, positive after. */
export function compareCheckpoints(a: Checkpoint, b: Checkpoint): number {
  if (a.txId !== b.txId) return a.txId < b.txId ? -1 : 1;
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  return 0;
}

/** True when a projection at `current` has applied the event at `target` (and all before it). */
export function hasReached(current: Checkpoint, target: Checkpoint): boolean {
  return compareCheckpoints(current, target) >= 0;
}
