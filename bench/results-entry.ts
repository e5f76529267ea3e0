/**
 * `node bench/results-entry.ts [file]`: prints a bench/RESULTS.md entry for one run, from the
 * JSON `npm run bench` writes (default bench/results/latest.json): a heading with the date and
 * the machine, and the targets table the run printed. Paste it at the top of RESULTS.md and add
 * what changed in the tree and what the figures show; the JSON itself is not committed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The parts of bench/run.ts's result this entry reads. */
export interface RecordedRun {
  recordedAt: string;
  quick: boolean;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; loadAverage: readonly number[] };
  durationSeconds: number;
  targets: readonly { figure: string; measured: string; target: string; verdict: string }[];
}

/** The markdown entry for one recorded run. */
export function resultsEntry(run: RecordedRun): string {
  const at = new Date(run.recordedAt);
  const day = at.toISOString().slice(0, 10);
  const time = at.toISOString().slice(11, 16);
  const kind = run.quick ? 'quick run' : 'full run';
  const { machine } = run;
  const load = machine.loadAverage.map((value) => value.toFixed(1)).join(' / ');
  const lines = [
    `## ${day} ${time} UTC, ${machine.cpus} vCPU ${machine.cpuModel}: ${kind}`,
    '',
    `${machine.memoryGiB} GiB, Node ${machine.node}, load average ${load} at the end; ${Math.round(run.durationSeconds / 60)} minutes.`,
    '',
    '| figure | measured | target | verdict |',
    '|---|---|---|---|',
    ...run.targets.map(
      (row) => `| ${cell(row.figure)} | ${cell(row.measured)} | ${cell(row.target)} | ${cell(row.verdict)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** A table cell: a pipe would end the cell early. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? fileURLToPath(new URL('./results/latest.json', import.meta.url));
  const run = JSON.parse(readFileSync(file, 'utf8')) as RecordedRun;
  process.stdout.write(resultsEntry(run));
}
