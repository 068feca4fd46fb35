import { stat } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import type { Command } from 'commander';
import type { IngestedSource } from '../../shared/agent.js';
import type { IngestEvent, KnowledgeEngine, SourceInput } from '../../knowledge/index.js';
import { barReporter, displaySource, lineReporter, type ProgressReporter } from './ingest-progress.js';
import { namespaceFrom } from '../config.js';
import { dataDirOf, namespaceOption, untilStopped } from './options.js';
import { renderTable } from './table.js';

interface IngestCommandOptions {
  namespace?: string;
  watch?: boolean;
}

export function registerIngestCommand(program: Command): void {
  const summary = 'ingest files, folders, URLs or standard input (-) into a namespace';
  namespaceOption(
    program
      .command('ingest')
      .summary(summary)
      .description(
        `${summary}.\nFolders are read recursively; a source ingested before is skipped when unchanged and ` +
          're-indexed when changed. Exits with status 1 when any source failed.',
      )
      .argument('<sources...>', 'paths, http(s) URLs, or - for standard input'),
  )
    .option('--watch', 'keep watching the given folders and re-index on change')
    .action(async (sources: string[], options: IngestCommandOptions, command: Command) => {
      // Loaded when the command runs, so `parley --help` and other commands start without the engine.
      const { KnowledgeEngine, detectSource, parseNamespace } = await import('../../knowledge/index.js');
      const namespace = parseNamespace(namespaceFrom(options, process.env));
      const { inputs, refused } = await sourceInputs(sources, detectSource);
      const folders = options.watch ? await watchableFolders(inputs) : [];
      const engine = await KnowledgeEngine.open({
        dataDir: dataDirOf(command),
        // The person at the terminal can reach their own network anyway; the guard is for the HTTP API.
        allowPrivateNetwork: true,
        watchNamespaceFolders: options.watch ?? false,
      });
      try {
        const removed: string[] = [];
        const reporter = progressReporter();
        for (const failure of refused) {
          reporter.onProgress({ type: 'queued', source: failure.source });
          reporter.onProgress({ type: 'failed', source: failure.source, error: failure.error ?? '' });
        }
        const ingested =
          inputs.length === 0
            ? []
            : await engine.ingest(namespace, inputs, {
                onProgress: (event) => {
                  if (event.type === 'removed') removed.push(event.source);
                  reporter.onProgress(event);
                },
              });
        reporter.finish();
        const results = [...refused, ...ingested];
        process.stdout.write(ingestSummary(results, removed.length));
        process.exitCode = results.some((result) => result.status === 'failed') ? 1 : 0;
        if (options.watch) await watchUntilInterrupted(engine, namespace, folders);
      } finally {
        await engine.close();
      }
    });
}

/**
 * CLI arguments as sources; `-` is the text on standard input. An argument that names no source
 * (a path that does not exist, say) fails on its own, as a result, and the others still run.
 */
async function sourceInputs(
  sources: string[],
  detectSource: (raw: string) => SourceInput,
): Promise<{ inputs: SourceInput[]; refused: IngestedSource[] }> {
  if (sources.filter((source) => source === '-').length > 1) {
    throw new Error('standard input (-) can be given once');
  }
  const inputs: SourceInput[] = [];
  const refused: IngestedSource[] = [];
  for (const source of sources) {
    try {
      inputs.push(source === '-' ? await standardInput() : detectSource(source));
    } catch (error) {
      refused.push({
        source,
        status: 'failed',
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { inputs, refused };
}

async function standardInput(): Promise<SourceInput> {
  const body = await text(process.stdin);
  if (!body.trim()) throw new Error('standard input is empty');
  return { kind: 'text', text: body, title: 'standard input' };
}

async function watchableFolders(inputs: SourceInput[]): Promise<string[]> {
  const folders: string[] = [];
  for (const input of inputs) {
    if (input.kind !== 'file') continue;
    const stats = await stat(input.path).catch(() => undefined);
    if (stats?.isDirectory()) folders.push(input.path);
  }
  if (folders.length === 0) throw new Error('--watch follows folders: give at least one folder to watch');
  return folders;
}

function progressReporter(): ProgressReporter {
  return process.stderr.isTTY ? barReporter(process.stderr) : lineReporter(process.stderr);
}

/** Totals per outcome, then every failure with its reason. */
export function ingestSummary(results: IngestedSource[], removed: number): string {
  const rows: Array<Array<string | number>> = [];
  const totals = { sources: 0, pages: 0, chunks: 0 };
  for (const status of ['indexed', 'unchanged', 'failed'] as const) {
    const matching = results.filter((result) => result.status === status);
    if (matching.length === 0) continue;
    const pages = matching.reduce((sum, result) => sum + (result.pages ?? 0), 0);
    const chunks = matching.reduce((sum, result) => sum + (result.chunks ?? 0), 0);
    rows.push([status, matching.length, status === 'failed' ? '' : pages, status === 'failed' ? '' : chunks]);
    totals.sources += matching.length;
    totals.pages += pages;
    totals.chunks += chunks;
  }
  if (removed > 0) rows.push(['removed', removed, '', '']);
  rows.push(['total', totals.sources, totals.pages, totals.chunks]);
  const columns = [
    { header: 'outcome' },
    { header: 'sources', align: 'right' as const },
    { header: 'pages', align: 'right' as const },
    { header: 'chunks', align: 'right' as const },
  ];
  let summary = renderTable(columns, rows);
  const failures = results.filter((result) => result.status === 'failed');
  if (failures.length > 0) {
    summary += `\nFailures:\n${renderTable(
      [{ header: 'source' }, { header: 'reason' }],
      failures.map((failure) => [displaySource(failure.source), failure.error ?? 'unknown error']),
    )}`;
  }
  return summary;
}

async function watchUntilInterrupted(
  engine: KnowledgeEngine,
  namespace: string,
  folders: string[],
): Promise<void> {
  const reporter = lineReporter(process.stderr);
  const onProgress = (event: IngestEvent): void => reporter.onProgress(event);
  const onError = (error: Error): void => void process.stderr.write(`watch: ${error.message}\n`);
  for (const folder of folders) await engine.watch(folder, namespace, { onProgress, onError });
  process.stderr.write(`watching ${folders.map(displaySource).join(', ')} (Ctrl+C to stop)\n`);
  await untilStopped();
}
