/**
 * The first step of `npm test`: the Debian packages its stages run for real (a browser, the
 * monitoring files' checker, the connection pooler, a second PostgreSQL for the hot standby).
 * npm cannot install them, so this step does: with apt-get as root, or through `sudo -n`
 * where that needs no password; otherwise it stops at once and names the exact command, so a
 * fresh machine never gets ten minutes into the suite before failing on a missing binary.
 * `npm test` on a machine that has them all costs one stat per binary.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface Prerequisite {
  /** The Debian package that brings it. */
  debianPackage: string;
  /** Which stage needs it, for the message. */
  neededBy: string;
  /** Any one of these present means the package is installed (absolute paths, or names looked up on PATH). */
  anyOf: string[];
}

export const PREREQUISITES: Prerequisite[] = [
  { debianPackage: 'chromium', neededBy: 'the browser tests', anyOf: ['/usr/bin/chromium'] },
  { debianPackage: 'prometheus', neededBy: 'the monitoring files’ checks (promtool)', anyOf: ['promtool'] },
  {
    debianPackage: 'pgbouncer',
    neededBy: 'the connection-pooler tests',
    anyOf: ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'],
  },
  { debianPackage: 'nginx-light', neededBy: 'the balancer’s config check (nginx -t)', anyOf: ['/usr/sbin/nginx'] },
  {
    debianPackage: 'postgresql-15',
    neededBy: 'the read replicas’ primary and hot standby',
    anyOf: ['/usr/lib/postgresql/15/bin/pg_basebackup'],
  },
  { debianPackage: 'pgbackrest', neededBy: 'the backup and restore drill', anyOf: ['/usr/bin/pgbackrest'] },
  { debianPackage: 'patroni', neededBy: 'the failover drill (HA manager)', anyOf: ['/usr/bin/patroni'] },
  { debianPackage: 'etcd-server', neededBy: 'the failover drill (Patroni’s store)', anyOf: ['/usr/bin/etcd'] },
  { debianPackage: 'haproxy', neededBy: 'the failover drill (router)', anyOf: ['/usr/sbin/haproxy'] },
  { debianPackage: 'curl', neededBy: 'the HA profile’s etcd-auth script check', anyOf: ['/usr/bin/curl'] },
];

function isPresent(candidate: string): boolean {
  if (candidate.startsWith('/')) return existsSync(candidate);
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, candidate)));
}

export function missingPackages(prerequisites: Prerequisite[] = PREREQUISITES): Prerequisite[] {
  return prerequisites.filter((item) => !item.anyOf.some(isPresent));
}

function canRun(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** How apt-get can be run here: directly as root, through sudo without a password, or not at all. */
function aptRunner(): string[] | undefined {
  if (process.getuid?.() === 0) return [];
  if (canRun('sudo', ['-n', 'true'])) return ['sudo', '-n'];
  return undefined;
}

function run(prefix: string[], args: string[]): void {
  const [command, ...rest] = [...prefix, ...args];
  execFileSync(command as string, rest, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function main(): void {
  const missing = missingPackages();
  if (missing.length === 0) return;
  const names = missing.map((item) => item.debianPackage);
  const command = `sudo apt-get update && sudo apt-get install -y ${names.join(' ')}`;
  for (const item of missing) console.log(`test prerequisites: ${item.debianPackage} is missing (${item.neededBy})`);
  const runner = aptRunner();
  if (!runner) {
    console.error(`test prerequisites: cannot install them as this user. Run:\n  ${command}\nthen npm test again.`);
    process.exit(1);
  }
  try {
    run(runner, ['apt-get', 'update', '-qq']);
    run(runner, ['apt-get', 'install', '-y', '-qq', ...names]);
  } catch (error) {
    console.error(`test prerequisites: apt-get failed (${(error as Error).message}). Run:\n  ${command}`);
    process.exit(1);
  }
  const still = missingPackages();
  if (still.length > 0) {
    console.error(
      `test prerequisites: still missing after apt-get: ${still.map((item) => item.debianPackage).join(', ')}`,
    );
    process.exit(1);
  }
  console.log(`test prerequisites: installed ${names.join(', ')}`);
}

if (import.meta.main) main();
