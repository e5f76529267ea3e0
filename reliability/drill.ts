/**
 * `npm run drill -- <name> [options]`: the durability drills, runnable by anyone on one
 * machine. Each drill lives in `reliability/drills/<name>.ts`, builds its own cluster on
 * loopback ports, runs the real API and worker processes against it, cleans up after itself,
 * prints progress on stderr and ends with exactly one JSON line on stdout. Exit 0 when the
 * drill's own checks held, 1 when one did not, 2 on a usage error.
 */
export interface DrillOutcome {
  /** The drill's one JSON line. */
  line: Record<string, unknown>;
  /** Whether every check of the drill held (nothing lost, nothing doubled, verify ok...). */
  passed: boolean;
}

export interface Drill {
  /** One line of usage, for `npm run drill -- --help`. */
  usage: string;
  run(args: string[], progress: (message: string) => void): Promise<DrillOutcome>;
}

export const DRILLS = ['failover', 'restore'] as const;
export type DrillName = (typeof DRILLS)[number];

export async function loadDrill(name: DrillName): Promise<Drill> {
  const module = (await import(`./drills/${name}.ts`)) as { drill: Drill };
  return module.drill;
}

function progress(message: string): void {
  process.stderr.write(`[${new Date().toISOString()}] ${message}\n`);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || !(DRILLS as readonly string[]).includes(name)) {
    const usages = await Promise.all(DRILLS.map(async (drill) => `  ${drill}: ${(await loadDrill(drill)).usage}`));
    process.stderr.write(`usage: npm run drill -- <${DRILLS.join('|')}> [options]\n${usages.join('\n')}\n`);
    return name === '--help' ? 0 : 2;
  }
  const outcome = await (await loadDrill(name as DrillName)).run(args, progress);
  process.stdout.write(`${JSON.stringify(outcome.line)}\n`);
  return outcome.passed ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
