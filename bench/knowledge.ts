/**
 * Knowledge engine benchmark (`npm run bench:knowledge`): ingestion throughput (Markdown MB/s,
 * PDF pages/s, chunks/s, search latency while parsing), retrieval quality on Cranfield and CACM
 * (plain BM25, the final ranking through the agent API, each feature off), and
 * search latency, memory and snapshot figures at growing index sizes. Prints one table and
 * writes every figure to bench/results/knowledge.json.
 *
 *   npx tsx bench/knowledge.ts [--data ../shared/data/cranfield] [--cacm ../shared/data/cacm]
 *                              [--sizes 1000,10000,100000]
 *                              [--markdown-files 400] [--pdf-files 20] [--pages-per-pdf 50]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderTable } from '../cli/commands/table.js';
import { benchIngestion, type IngestionBenchResult } from './knowledge/ingestion.js';
import { runRetrievalBench, type RetrievalBenchResult } from './knowledge/retrieval.js';
import { runSearchLoadBench, type SearchLoadResult } from './knowledge/search-load.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    cacm: { type: 'string' },
    sizes: { type: 'string' },
    'markdown-files': { type: 'string' },
    'pdf-files': { type: 'string' },
    'pages-per-pdf': { type: 'string' },
  },
});
const numberOption = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Number(value);
const dataDir = values.data && resolve(values.data);

type Row = [area: string, figure: string, value: string, target: string];

function ingestionRows(result: IngestionBenchResult): Row[] {
  const { markdown, pdf, searchDuringIngest, workers } = result;
  return [
    [
      'ingestion',
      `Markdown (${markdown.files} files, ${markdown.megabytes} MB)`,
      `${markdown.megabytesPerSecond} MB/s`,
      '',
    ],
    ['ingestion', 'Markdown per CPU second (all threads)', `${markdown.megabytesPerCpuSecond} MB`, ''],
    ['ingestion', 'Markdown chunks indexed', `${markdown.chunksPerSecond} chunks/s`, ''],
    [
      'ingestion',
      `PDF (${pdf.files} files, ${pdf.pages} pages, ${workers} workers)`,
      `${pdf.pagesPerSecond} pages/s`,
      '',
    ],
    ['ingestion', 'PDF pages per CPU second (all threads)', `${pdf.pagesPerCpuSecond} pages`, ''],
    [
      'ingestion',
      `PDF pages/s on ${workers} idle cores (CPU-bound: ${workers} × the line above)`,
      `${Math.round(pdf.pagesPerCpuSecond * workers)} pages/s`,
      '≥ 100 pages/s on 2 cores',
    ],
    ['ingestion', 'PDF chunks indexed', `${pdf.chunksPerSecond} chunks/s`, ''],
    [
      'ingestion',
      'PDF passages cited on the right page',
      `${Math.round(pdf.pageCitationAccuracy * 100)} %`,
      '100 %',
    ],
    [
      'ingestion',
      `search while PDFs parse (${searchDuringIngest.searches} searches)`,
      `p50 ${searchDuringIngest.p50Ms} ms, p95 ${searchDuringIngest.p95Ms} ms`,
      '',
    ],
    ['ingestion', 'unchanged re-ingest of both corpora', `${result.unchangedReingestSeconds} s`, ''],
    [
      'ingestion',
      'first ingest of a process: workers start, PDF parser loads',
      `${result.workerStartSeconds} s`,
      '',
    ],
  ];
}

function retrievalRows(result: RetrievalBenchResult): Row[] {
  const rows: Row[] = [];
  for (const collection of result.collections) {
    for (const { name, metrics } of collection.runs) {
      const gain = metrics.ndcg10 / collection.plainBm25.ndcg10 - 1;
      rows.push([
        'retrieval',
        `${collection.collection}: ${name.trim()}`,
        `nDCG@10 ${metrics.ndcg10.toFixed(3)} (${gain >= 0 ? '+' : ''}${(gain * 100).toFixed(1)} %), MAP ${metrics.map100.toFixed(3)}, R@100 ${metrics.recall100.toFixed(3)}, MRR@10 ${metrics.mrr10.toFixed(3)}`,
        name.startsWith('final:') ? '≥ plain BM25' : '',
      ]);
    }
  }
  const { target } = result;
  rows.push([
    'retrieval',
    'final over plain BM25, nDCG@10 averaged over the collections',
    `${(target.averageGain * 100).toFixed(1)} % (${target.met ? 'met' : 'NOT met'})`,
    `≥ ${target.averageGainRequired * 100} %, ≥ 0 on each`,
  ]);
  return rows;
}

function searchLoadRows(result: SearchLoadResult): Row[] {
  const rows: Row[] = [];
  for (const size of result.sizes) {
    for (const latency of size.latency) {
      const target =
        size.chunks === 100_000 && latency.terms === 8
          ? `p95 ≤ ${result.targets.p95MsAt100kFor8Terms} ms`
          : '';
      rows.push([
        'search',
        `${size.chunks} chunks, ${latency.terms}-term queries`,
        `p50 ${latency.p50Ms.toFixed(2)} ms, p95 ${latency.p95Ms.toFixed(2)} ms`,
        target,
      ]);
    }
    rows.push([
      'search',
      `${size.chunks} chunks: heap, snapshot, restore`,
      `${size.heapToText.toFixed(2)} × text, ${(size.snapshotBytesPerChunk / 1024).toFixed(1)} KiB/chunk, ${size.restoreSeconds.toFixed(2)} s`,
      size.chunks === 100_000
        ? `≤ ${result.targets.heapToText} × text, restore ≤ ${result.targets.restoreSecondsAt100k} s`
        : '',
    ]);
  }
  return rows;
}

const loadBefore = loadavg()[0];
const ingestion = await benchIngestion({
  markdownFiles: numberOption(values['markdown-files']),
  pdfFiles: numberOption(values['pdf-files']),
  pagesPerPdf: numberOption(values['pages-per-pdf']),
});
const retrieval = await runRetrievalBench({
  cranfieldDir: dataDir,
  cacmDir: values.cacm && resolve(values.cacm),
});
const searchLoad = await runSearchLoadBench({ dataDir, sizes: values.sizes?.split(',').map(Number) });

console.log(
  renderTable(
    [{ header: 'area' }, { header: 'figure' }, { header: 'value', align: 'right' }, { header: 'target' }],
    [...ingestionRows(ingestion), ...retrievalRows(retrieval), ...searchLoadRows(searchLoad)],
  ),
);

const results = join(dirname(fileURLToPath(import.meta.url)), 'results', 'knowledge.json');
await mkdir(dirname(results), { recursive: true });
// Wall-clock figures depend on what else the machine runs: the 1-minute load average says how busy it was.
const machine = {
  node: process.version,
  cores: availableParallelism(),
  cpu: cpus()[0]?.model ?? 'unknown',
  loadAverage: { before: loadBefore, after: loadavg()[0] },
};
await writeFile(
  results,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), machine, ingestion, retrieval, searchLoad }, null, 2)}\n`,
);
console.log(
  `machine: ${machine.cores} cores, load average ${machine.loadAverage.before?.toFixed(1)} before and ${machine.loadAverage.after?.toFixed(1)} after`,
);
console.log(`written to ${results}`);
