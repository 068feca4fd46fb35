/**
 * bench:desktop — what the Chats section costs the knowledge views: the window built as
 * `npm run build` makes it (with Chats, whose UI Kit loads only when Chats opens) and the same
 * window built with the Chats view left out, both served by a real agent holding one namespace.
 * Median over cold loads (a fresh browser profile each run, the two builds alternated) of the time
 * from navigation start to the namespace's documents table on screen, and the script and style
 * bytes that view loaded (with whether any Chats file was among them). Target: with Chats within
 * +10 % of without.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { desktopBundles } from '../desktop/bundles.js';
import { knowledgeAppUi } from '../knowledge/server/app-ui.js';
import { agentConfigFromEnv, openAgentEngine, startAgentServer } from '../knowledge/server/index.js';
import { launchChromium } from '../test/support/browser.js';
import { median, writeResults } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TARGET_RATIO = 1.1;
const NAMESPACE = 'handbook';

/** The window without Chats: the Chats view (and with it every UI Kit import) replaced by nothing. */
const withoutChats: Plugin = {
  name: 'without-chats',
  setup(bundle) {
    bundle.onResolve({ filter: /views\/chats-view\.js$/ }, () => ({
      path: 'chats-view',
      namespace: 'no-chats',
    }));
    bundle.onLoad({ filter: /.*/, namespace: 'no-chats' }, () => ({
      contents: 'export function ChatsView() { return null; }',
      loader: 'js',
    }));
  },
};

async function buildWindow(outRoot: string, chats: boolean): Promise<string> {
  for (const options of desktopBundles(outRoot)) {
    const plugins = chats ? (options.plugins ?? []) : [...(options.plugins ?? []), withoutChats];
    await build({ logLevel: 'error', ...options, plugins });
  }
  return join(outRoot, 'desktop', 'renderer');
}

const work = mkdtempSync(join(tmpdir(), 'parley-bench-desktop-'));
const folders = {
  withChats: await buildWindow(join(work, 'with'), true),
  withoutChats: await buildWindow(join(work, 'without'), false),
};
const config = agentConfigFromEnv({}, join(work, 'agent'));
const engine = await openAgentEngine(join(work, 'agent'), config);
await engine.ingest(
  NAMESPACE,
  Array.from({ length: 12 }, (_, index) => ({
    kind: 'text' as const,
    title: `Handbook chapter ${index + 1}`,
    text: `# Chapter ${index + 1}\n\n${'Visitors park in the north garage on level two. '.repeat(40)}`,
  })),
);
const servers = {
  withChats: await startAgentServer({
    config,
    backend: engine,
    host: '127.0.0.1',
    port: 0,
    ui: knowledgeAppUi(folders.withChats),
  }),
  withoutChats: await startAgentServer({
    config,
    backend: engine,
    host: '127.0.0.1',
    port: 0,
    ui: knowledgeAppUi(folders.withoutChats),
  }),
};
const browser = await launchChromium();

interface Load {
  ms: number;
  /** Script and stylesheet bytes the page loaded (bodies as sent). */
  bytes: number;
  /** Files of the Chats section among them (chats.css, the chats-console chunk). */
  chatsFiles: number;
}

/** One cold load: ms from navigation start to the documents table of the namespace on screen. */
async function firstRender(apiUrl: string): Promise<Load> {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await tab.goto(`${apiUrl.replace(/\/api$/, '/')}#/ns/${NAMESPACE}/documents`);
    const done = await tab.waitForFunction(
      () => (document.querySelector('table tbody tr') ? performance.now() : false),
      null,
      { polling: 'raf', timeout: 30_000 },
    );
    const ms = (await done.jsonValue()) as number;
    const files = await tab.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry as PerformanceResourceTiming)
        .filter((entry) => /\.(js|css)$/.test(new URL(entry.name).pathname))
        .map((entry) => ({ name: entry.name, bytes: entry.encodedBodySize })),
    );
    return {
      ms,
      bytes: files.reduce((sum, file) => sum + file.bytes, 0),
      chatsFiles: files.filter((file) => /chats/.test(file.name)).length,
    };
  } finally {
    await context.close();
  }
}

try {
  // One warm-up each (the agent's first answers), then the two builds alternated.
  await firstRender(servers.withChats.apiUrl);
  await firstRender(servers.withoutChats.apiUrl);
  const runs = { withChats: [] as Load[], withoutChats: [] as Load[] };
  for (let run = 0; run < RUNS; run++) {
    runs.withChats.push(await firstRender(servers.withChats.apiUrl));
    runs.withoutChats.push(await firstRender(servers.withoutChats.apiUrl));
  }
  const withChats = median(runs.withChats.map((load) => load.ms));
  const withoutChats = median(runs.withoutChats.map((load) => load.ms));
  const summary = (loads: Load[], ms: number) => ({
    firstRenderMedianMs: Math.round(ms),
    firstRenderRunsMs: loads.map((load) => Math.round(load.ms)),
    scriptAndStyleBytes: loads[0]?.bytes ?? 0,
    chatsFilesLoaded: Math.max(...loads.map((load) => load.chatsFiles)),
  });
  const ratio = withChats / withoutChats;
  const results = writeResults('desktop', {
    runs: RUNS,
    view: `#/ns/${NAMESPACE}/documents`,
    withChats: summary(runs.withChats, withChats),
    withoutChats: summary(runs.withoutChats, withoutChats),
    ratio: Number(ratio.toFixed(3)),
    targets: { ratio: TARGET_RATIO },
    meetsTargets: ratio <= TARGET_RATIO,
  });
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.table({
    'window with Chats (UI Kit loaded on opening Chats)': {
      'scripts + styles loaded': kb(results.withChats.scriptAndStyleBytes),
      'Chats files loaded': results.withChats.chatsFilesLoaded,
      'first render, median ms': results.withChats.firstRenderMedianMs,
    },
    'window without Chats': {
      'scripts + styles loaded': kb(results.withoutChats.scriptAndStyleBytes),
      'Chats files loaded': results.withoutChats.chatsFilesLoaded,
      'first render, median ms': results.withoutChats.firstRenderMedianMs,
    },
  });
  console.log(
    `with/without = ${results.ratio} (target ≤ ${TARGET_RATIO}) — ${results.meetsTargets ? 'met' : 'NOT met'}; results in bench/results/desktop.json`,
  );
} finally {
  await browser.close();
  await servers.withChats.close();
  await servers.withoutChats.close();
  await engine.close();
  rmSync(work, { recursive: true, force: true });
}
