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

export function parseCheckpoint(token: string): Checkpoint {
  const match = TOKEN.exec(token.trim());
  if (!match?.[1] || !match[2]) throw new Error(`not a checkpoint token: "${token}" (expected <tx_id>.<position>)`);
  return { txId: BigInt(match[1]), position: BigInt(match[2]) };
}

export function isCheckpointToken(token: string): boolean {
  return TOKEN.test(token.trim());
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
