/**
 * Ingestion throughput of the knowledge engine on generated sources with known text:
 * Markdown in MB/s, PDF pages/s (PDFs written with pdf-lib), chunks indexed/s, and how long a
 * search takes while the parser workers are busy with PDFs.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { KnowledgeEngine } from '../../knowledge/index.js';
import { buildPdf } from '../../test/knowledge/support/pdf.js';

export interface IngestionBenchOptions {
  markdownFiles?: number;
  /** Approximate size of one Markdown file, in bytes. */
  markdownBytes?: number;
  pdfFiles?: number;
  pagesPerPdf?: number;
  workers?: number;
}

export interface IngestionBenchResult {
  workers: number;
  /** The first ingest of the process: workers started and the PDF parser loaded. */
  workerStartSeconds: number;
  markdown: {
    files: number;
    megabytes: number;
    seconds: number;
    megabytesPerSecond: number;
    /** CPU time of all threads of the process: a figure that does not depend on what else runs. */
    cpuSeconds: number;
    megabytesPerCpuSecond: number;
    chunks: number;
    chunksPerSecond: number;
  };
  pdf: {
    files: number;
    pages: number;
    seconds: number;
    pagesPerSecond: number;
    cpuSeconds: number;
    pagesPerCpuSecond: number;
    chunks: number;
    chunksPerSecond: number;
    /** Share of sampled pages whose unique word is found on the right page. */
    pageCitationAccuracy: number;
  };
  /** Searches run every 20 ms on another namespace while the PDFs are parsed. */
  searchDuringIngest: { searches: number; p50Ms: number; p95Ms: number; maxMs: number };
  /** Re-ingesting everything unchanged. */
  unchangedReingestSeconds: number;
}

const WORDS = (
  'harbour ledger anchor beacon current dredge estuary ferry gale hull jetty keel lantern mooring ' +
  'navigation quay rigging salvage tide vessel warehouse cargo manifest pilot customs tariff crane ' +
  'berth breakwater channel chart compass draught fathom horizon inlet lighthouse mast port starboard'
).split(' ');

/** A deterministic pseudo-random sequence, so every run ingests the same text. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(next: () => number): string {
  const words = Array.from(
    { length: 8 + Math.floor(next() * 10) },
    () => WORDS[Math.floor(next() * WORDS.length)],
  );
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

const SYLLABLES = ['ba', 'ko', 'mi', 'ru', 'te', 'vo', 'ga', 'lu', 'ne', 'zi'];
/**
 * A word found on exactly one page of the corpus: letters only (no tokenizer splits it), a
 * syllable per digit (no two are one typo apart), a final k (no stemmer trims two to one stem).
 */
const marker = (n: number): string =>
  `zephyr${[...String(n).padStart(5, '0')].map((digit) => SYLLABLES[Number(digit)]).join('')}k`;

function markdownFile(index: number, bytes: number): string {
  const next = random(index + 1);
  let text = `# Report ${index}\n\n`;
  let section = 0;
  while (text.length < bytes) {
    text += `## Section ${++section}\n\n`;
    for (let p = 0; p < 3; p++) text += `${Array.from({ length: 5 }, () => sentence(next)).join(' ')}\n\n`;
  }
  return text;
}

function pdfPageLines(next: () => number, word: string): string[] {
  const lines = Array.from({ length: 34 }, () => sentence(next).slice(0, 90));
  lines[17] = `This page is filed under ${word}.`;
  return lines;
}

export async function benchIngestion(options: IngestionBenchOptions = {}): Promise<IngestionBenchResult> {
  const markdownFiles = options.markdownFiles ?? 400;
  const markdownBytes = options.markdownBytes ?? 25_000;
  const pdfFiles = options.pdfFiles ?? 20;
  const pagesPerPdf = options.pagesPerPdf ?? 50;
  const root = await mkdtemp(join(tmpdir(), 'parley-bench-ingest-'));
  try {
    const markdownFolder = join(root, 'markdown');
    const pdfFolder = join(root, 'pdf');
    await mkdir(markdownFolder);
    await mkdir(pdfFolder);
    let markdownTotal = 0;
    for (let i = 0; i < markdownFiles; i++) {
      const body = markdownFile(i, markdownBytes);
      markdownTotal += Buffer.byteLength(body);
      await writeFile(join(markdownFolder, `report-${i}.md`), body);
    }
    for (let f = 0; f < pdfFiles; f++) {
      const next = random(10_000 + f);
      const pages = Array.from({ length: pagesPerPdf }, (_, p) => ({
        lines: pdfPageLines(next, marker(f * pagesPerPdf + p)),
      }));
      await writeFile(join(pdfFolder, `manual-${f}.pdf`), await buildPdf(pages, { title: `Manual ${f}` }));
    }

    const workers = options.workers ?? Math.min(2, availableParallelism());
    const warmupFolder = join(root, 'warmup');
    await mkdir(warmupFolder);
    for (let w = 0; w < workers; w++) {
      await writeFile(join(warmupFolder, `warmup-${w}.pdf`), await buildPdf([{ lines: ['Warm-up page.'] }]));
    }

    const engine = await KnowledgeEngine.open({ dataDir: join(root, 'data'), workers });
    try {
      // Starting the workers and loading the PDF parser is paid once per process: measured apart.
      let started = performance.now();
      assertAllIndexed(await engine.ingest('warmup', [{ kind: 'file', path: warmupFolder }]), 'warm-up');
      const workerStartSeconds = (performance.now() - started) / 1000;

      started = performance.now();
      let cpu = process.cpuUsage();
      const markdownResults = await engine.ingest('markdown', [{ kind: 'file', path: markdownFolder }]);
      const markdownSeconds = (performance.now() - started) / 1000;
      const markdownCpuSeconds = cpuSeconds(process.cpuUsage(cpu));
      const markdownChunks = markdownResults.reduce((sum, result) => sum + (result.chunks ?? 0), 0);
      assertAllIndexed(markdownResults, 'markdown');

      const latencies: number[] = [];
      let searching = true;
      const searchLoop = (async () => {
        while (searching) {
          const before = performance.now();
          await engine.search('markdown', 'harbour pilot customs tariff');
          latencies.push(performance.now() - before);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      started = performance.now();
      cpu = process.cpuUsage();
      const pdfResults = await engine.ingest('pdf', [{ kind: 'file', path: pdfFolder }]);
      const pdfSeconds = (performance.now() - started) / 1000;
      // Includes the searches running meanwhile: a slight overestimate of the parsing cost.
      const pdfCpuSeconds = cpuSeconds(process.cpuUsage(cpu));
      searching = false;
      await searchLoop;
      assertAllIndexed(pdfResults, 'pdf');
      const pdfPages = pdfResults.reduce((sum, result) => sum + (result.pages ?? 0), 0);
      const pdfChunks = pdfResults.reduce((sum, result) => sum + (result.chunks ?? 0), 0);

      const sampled = Array.from({ length: Math.min(100, pdfFiles * pagesPerPdf) }, (_, i) =>
        Math.floor((i * pdfFiles * pagesPerPdf) / Math.min(100, pdfFiles * pagesPerPdf)),
      );
      let cited = 0;
      for (const n of sampled) {
        const [hit] = await engine.search('pdf', marker(n), { limit: 1 });
        const expected = { title: `Manual ${Math.floor(n / pagesPerPdf)}`, page: (n % pagesPerPdf) + 1 };
        if (hit?.source.title === expected.title && hit.source.page === expected.page) cited++;
      }

      started = performance.now();
      await engine.ingest('markdown', [{ kind: 'file', path: markdownFolder }]);
      await engine.ingest('pdf', [{ kind: 'file', path: pdfFolder }]);
      const unchangedReingestSeconds = (performance.now() - started) / 1000;

      latencies.sort((a, b) => a - b);
      const percentile = (p: number): number =>
        latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
      const megabytes = markdownTotal / 1_000_000;
      return {
        workers,
        workerStartSeconds: round(workerStartSeconds),
        markdown: {
          files: markdownFiles,
          megabytes: round(megabytes),
          seconds: round(markdownSeconds),
          megabytesPerSecond: round(megabytes / markdownSeconds),
          cpuSeconds: round(markdownCpuSeconds),
          megabytesPerCpuSecond: round(megabytes / markdownCpuSeconds),
          chunks: markdownChunks,
          chunksPerSecond: Math.round(markdownChunks / markdownSeconds),
        },
        pdf: {
          files: pdfFiles,
          pages: pdfPages,
          seconds: round(pdfSeconds),
          pagesPerSecond: round(pdfPages / pdfSeconds),
          cpuSeconds: round(pdfCpuSeconds),
          pagesPerCpuSecond: round(pdfPages / pdfCpuSeconds),
          chunks: pdfChunks,
          chunksPerSecond: Math.round(pdfChunks / pdfSeconds),
          pageCitationAccuracy: round(cited / sampled.length),
        },
        searchDuringIngest: {
          searches: latencies.length,
          p50Ms: round(percentile(0.5)),
          p95Ms: round(percentile(0.95)),
          maxMs: round(latencies.at(-1) ?? 0),
        },
        unchangedReingestSeconds: round(unchangedReingestSeconds),
      };
    } finally {
      await engine.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function assertAllIndexed(results: { status: string; source: string; error?: string }[], what: string): void {
  const failed = results.find((result) => result.status !== 'indexed');
  if (failed)
    throw new Error(
      `the ${what} corpus did not ingest cleanly: ${failed.source}: ${failed.status} ${failed.error ?? ''}`,
    );
}

const cpuSeconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;

const round = (value: number): number => Math.round(value * 100) / 100;
