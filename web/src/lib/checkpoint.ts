/**
 * Read-your-writes: every money command answers with the ledger checkpoint it reached;
 * reads pass the newest one as `minPosition` so the server answers only once its
 * projections have caught up. Checkpoints look like "<major>.<minor>" and are compared
 * numerically, so an older answer never replaces a newer one.
 */
let latest: string | null = null;

function parts(checkpoint: string): [bigint, bigint] | null {
  const match = /^(\d+)\.(\d+)$/.exec(checkpoint);
  return match ? [BigInt(match[1] ?? '0'), BigInt(match[2] ?? '0')] : null;
}

export function rememberCheckpoint(checkpoint: unknown): void {
  if (typeof checkpoint !== 'string') return;
  const next = parts(checkpoint);
  if (!next) return;
  const current = latest ? parts(latest) : null;
  if (!current || next[0] > current[0] || (next[0] === current[0] && next[1] > current[1])) latest = checkpoint;
}

export function latestCheckpoint(): string | null {
  return latest;
}

/** Test seam: forget the remembered checkpoint. */
export function resetCheckpoint(): void {
  latest = null;
}
