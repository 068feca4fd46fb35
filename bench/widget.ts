/**
 * bench:widget — what the widget costs a page: gzip and brotli bytes of dist/widget/parley-widget.js,
 * and the median time from script start to the first rendered conversation list in headless
 * Chromium (cold cache each run), beside a minimal page built the same way (esbuild, one minified
 * file) with CometChat's JS SDK 4.2.0 doing init + login + fetch conversations and drawing the names.
 * Both talk to the same chat service (server/, started here) over TLS: the SDK only speaks https/wss.
 */
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { launchChromium } from '../test/support/browser.js';
import { PageServer } from '../test/e2e/widget/support/page-server.js';
import { APP_ID, AUTH_KEY, ChatService } from '../test/widget/support/chat-service.js';
import { widgetBundles } from '../widget/bundle.js';
import { median, writeResults } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const TARGET_GZIP_BYTES = 35 * 1024;
const CONVERSATIONS = 8;

const work = mkdtempSync(join(tmpdir(), 'parley-bench-widget-'));

// The builds: the widget as `npm run build` makes it, and the reference page's one-file bundle.
await build(widgetBundles(work).find((options) => options.outfile?.endsWith('parley-widget.js'))!);
const widgetScript = readFileSync(join(work, 'parley-widget.js'), 'utf8');
const reference = await build({
  stdin: {
    contents: `
      import { CometChat } from '@cometchat/chat-sdk-javascript';
      const config = window.benchConfig;
      const settings = new CometChat.AppSettingsBuilder()
        .setRegion('eu')
        .overrideClientHost(config.sdkHost)
        .overrideAdminHost(config.sdkHost)
        .autoEstablishSocketConnection(true)
        .build();
      CometChat.init(config.appId, settings)
        .then(() => CometChat.login(config.uid, config.authKey))
        .then(() => new CometChat.ConversationsRequestBuilder().setLimit(30).build().fetchNext())
        .then((conversations) => {
          const list = document.createElement('ul');
          for (const conversation of conversations) {
            const item = document.createElement('li');
            item.textContent = conversation.getConversationWith().getName();
            list.append(item);
          }
          document.getElementById('chat').append(list);
        });
    `,
    resolveDir: process.cwd(),
    loader: 'js',
  },
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  write: false,
  logLevel: 'error',
});
const referenceScript = reference.outputFiles[0]!.text;

function sizes(source: string) {
  const bytes = Buffer.from(source);
  return {
    bytes: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

// The chat service over TLS (the SDK only speaks https/wss; the widget uses the same address).
const service = await ChatService.start({ tls: true });
const others = ['bob', 'carol', 'knowledge'];
for (let n = 0; n < CONVERSATIONS; n++) {
  const uid = others[n] ?? `guest${n}`;
  if (n >= others.length) await service.admin.createUser({ uid, name: `Guest ${n}` });
  await service.sendAs(uid, { type: 'user', id: 'alice' }, { data: { text: `Hello number ${n}` } });
}

// Both pages: mark the start, load the one script, then signal when the list is on screen.
const pages = new PageServer(widgetScript);
await pages.start();
const sdkHost = `${new URL(service.httpsUrl).host}/v3`;
const config = { appId: APP_ID, authKey: AUTH_KEY, uid: 'alice', host: service.httpsUrl, sdkHost };
const probe = (found: string) => `
  (function wait() {
    if (${found}) window.benchDone = performance.now() - window.benchStart;
    else requestAnimationFrame(wait);
  })();`;
pages.pages.set('/start.js', {
  type: 'text/javascript',
  body: `window.benchStart = performance.now(); window.benchConfig = ${JSON.stringify(config)};`,
});
pages.pages.set('/cometchat-reference.js', { type: 'text/javascript', body: referenceScript });
pages.pages.set('/parley-setup.js', {
  type: 'text/javascript',
  body: `
    ParleyWidget.init({ appID: benchConfig.appId, appRegion: 'eu', authKey: benchConfig.authKey, host: benchConfig.host })
      .then(() => ParleyWidget.login({ uid: benchConfig.uid }))
      .then(() => ParleyWidget.launch({ targetElementID: 'chat', height: '600px' }));
    ${probe(`document.querySelector('parley-chat')?.shadowRoot?.querySelector('parley-conversation-list')?.shadowRoot?.querySelector('li')`)}`,
});
pages.pages.set('/reference-probe.js', {
  type: 'text/javascript',
  body: probe(`document.querySelector('#chat li')`),
});
const page = (scripts: string[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><script src="/start.js"></script>${scripts
    .map((src) => `<script src="${src}"></script>`)
    .join('')}</head><body><div id="chat"></div></body></html>`;
pages.pages.set('/parley', { body: page(['/parley-widget.js', '/parley-setup.js']) });
pages.pages.set('/cometchat', { body: page(['/cometchat-reference.js', '/reference-probe.js']) });

const browser = await launchChromium({ ignoreCertificateErrors: true });

/** One cold load (a fresh profile, so nothing is cached): ms from script start to the list on screen. */
async function firstListMs(path: string): Promise<number> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const tab = await context.newPage();
    await tab.goto(`${pages.origin}${path}`);
    await tab.waitForFunction(() => (window as { benchDone?: number }).benchDone !== undefined, null, {
      timeout: 30_000,
    });
    return await tab.evaluate(() => (window as unknown as { benchDone: number }).benchDone);
  } finally {
    await context.close();
  }
}

try {
  // Alternating the two pages, so changing machine load affects both alike.
  const parleyRuns: number[] = [];
  const referenceRuns: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    parleyRuns.push(await firstListMs('/parley'));
    referenceRuns.push(await firstListMs('/cometchat'));
  }
  const widget = {
    ...sizes(widgetScript),
    firstListMedianMs: Math.round(median(parleyRuns)),
    firstListRunsMs: parleyRuns.map(Math.round),
  };
  const cometchat = {
    ...sizes(referenceScript),
    firstListMedianMs: Math.round(median(referenceRuns)),
    firstListRunsMs: referenceRuns.map(Math.round),
  };
  const results = writeResults('widget', {
    runs: RUNS,
    conversations: CONVERSATIONS,
    widget,
    cometchatSdkReference: cometchat,
    targets: { widgetGzipBytes: TARGET_GZIP_BYTES },
    meetsTargets: widget.gzip <= TARGET_GZIP_BYTES,
  });
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.table({
    'parley-widget.js (whole widget, Lit included)': {
      minified: kb(widget.bytes),
      gzip: kb(widget.gzip),
      brotli: kb(widget.brotli),
      'first list, median ms': widget.firstListMedianMs,
    },
    'CometChat SDK 4.2.0 minimal page (no UI)': {
      minified: kb(cometchat.bytes),
      gzip: kb(cometchat.gzip),
      brotli: kb(cometchat.brotli),
      'first list, median ms': cometchat.firstListMedianMs,
    },
  });
  console.log(
    `target: widget ≤ ${kb(TARGET_GZIP_BYTES)} gzip — ${results.meetsTargets ? 'met' : 'NOT met'}; results in bench/results/widget.json`,
  );
} finally {
  await browser.close();
  await pages.stop();
  await service.close();
  rmSync(work, { recursive: true, force: true });
}
