import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/** The middle value of a sample (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The chat benches' create-message request: one ordinary text from bench-sender to bench-receiver. */
export const createMessageRequest = (headers: Record<string, string>) => ({
  method: 'POST' as const,
  headers: { ...headers, onBehalfOf: 'bench-sender' },
  body: JSON.stringify({
    receiver: 'bench-receiver',
    receiverType: 'user',
    category: 'message',
    type: 'text',
    data: { text: 'A benchmark message of ordinary length, about sixty characters.' },
  }),
});

/** Clock ticks per second of /proc/<pid>/stat: 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** A process's user + system CPU time in microseconds, from /proc (Linux only; null elsewhere). */
export function processCpuMicros(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1e6;
  } catch {
    return null;
  }
}

export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** The one-minute load average now, to two decimals: benches record it before and after they measure. */
export const loadNow = (): number => round(loadavg()[0] ?? 0, 2);

/**
 * Writes a bench's results to `bench/results/<name>.json`, headed by when it ran and on how many
 * CPUs, and returns what it wrote.
 */
export function writeResults<Results extends object>(name: string, results: Results) {
  const headed = { date: new Date().toISOString(), cpus: cpus().length, ...results };
  writeFileSync(new URL(`./results/${name}.json`, import.meta.url), `${JSON.stringify(headed, null, 2)}\n`);
  return headed;
}

/**
 * Runs a store bench on each engine in turn, with the load average before and after; PostgreSQL is
 * skipped (with a warning) when it is not reachable, SQLite never.
 */
export async function perEngine<Engine extends string, Result>(
  engines: readonly Engine[],
  bench: (engine: Engine) => Promise<Result>,
): Promise<{ runs: Result[]; loadAverage: { before: number; after: number } }> {
  const before = loadNow();
  const runs: Result[] = [];
  for (const engine of engines) {
    try {
      runs.push(await bench(engine));
    } catch (error) {
      if (engine !== 'postgres') throw error;
      console.warn(`PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { runs, loadAverage: { before, after: loadNow() } };
}
