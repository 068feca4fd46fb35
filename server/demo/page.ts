import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { Hono, type Context } from 'hono';
import type { ChatEnv } from '../http/context.js';

/** What the demo page's two chat windows log in with; served at `/demo/config.json`. */
export interface DemoConfig {
  appId: string;
  region: string;
  /** The app's authOnly key: made to be used in pages, it only logs users in. */
  authKey: string;
  users: { uid: string; name: string }[];
  group: { guid: string; name: string };
  agent: { uid: string; name: string };
}

const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * `/demo`: two chat windows side by side, one per demo user. Each `.demo-window` names its user in
 * `data-uid`; the widget's demo.js (built to dist/widget/, served at `/widget/`) mounts a chat
 * into each `.demo-chat` with the settings of `/demo/config.json`.
 */
function demoHtml(config: DemoConfig): string {
  const windows = config.users
    .map(
      (
        user,
      ) => `<section class="demo-window" data-uid="${escapeHtml(user.uid)}" aria-label="${escapeHtml(user.name)}">
<h2>${escapeHtml(user.name)}</h2>
<div class="demo-chat" id="chat-${escapeHtml(user.uid)}"></div>
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley demo</title>
<style>
body{margin:0;font:15px/1.5 system-ui,sans-serif;background:#eef0f4;color:#1d2330}
header{padding:1rem 1.5rem}main{display:grid;grid-template-columns:1fr 1fr;gap:1rem;padding:0 1.5rem 1.5rem}
.demo-window{background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002;display:flex;flex-direction:column;min-height:70vh}
.demo-window h2{margin:0;padding:.6rem 1rem;font-size:1rem;border-bottom:1px solid #e3e6ea}.demo-chat{flex:1;position:relative}
@media (max-width:800px){main{grid-template-columns:1fr}}
</style></head>
<body><header><h1>Parley demo</h1>
<p>${escapeHtml(config.users.map((user) => user.name).join(' and '))} chat in "${escapeHtml(config.group.name)}".
Ask the agent with <code>@agent</code> followed by a question.</p></header>
<main>
${windows}
</main>
<!-- The widget's build: demo.js mounts one <parley-chat> per .demo-chat with /demo/config.json. -->
<script src="/widget/parley-widget.js" defer></script>
<script src="/widget/demo.js" defer></script>
</body></html>`;
}

/** The demo page, its config, and the built widget files under `/widget/` (when built). */
export function demoPage(
  config: () => DemoConfig | undefined,
  widgetFolder: string,
): (app: Hono<ChatEnv>) => void {
  const page = new Hono<ChatEnv>();
  // The config exists once the demo is seeded, a moment after the server starts listening.
  const seeded = (c: Context) => {
    const current = config();
    return current === undefined ? c.text('The demo is being prepared; reload in a moment.', 503) : current;
  };
  page.get('/', (c) => {
    const current = seeded(c);
    return current instanceof Response ? current : c.html(demoHtml(current), 200, SECURITY_HEADERS);
  });
  page.get('/config.json', (c) => {
    const current = seeded(c);
    return current instanceof Response ? current : c.json(current, 200, SECURITY_HEADERS);
  });
  const widget = new Hono<ChatEnv>();
  widget.get('/*', async (c) => {
    const relative = normalize(c.req.path.replace(/^\/widget\//, ''));
    if (relative.startsWith('..') || relative.includes('\0')) return c.notFound();
    const type = TYPES[extname(relative)];
    if (type === undefined) return c.notFound();
    try {
      const body = await readFile(join(widgetFolder, relative));
      return c.body(body, 200, { 'content-type': type, ...SECURITY_HEADERS });
    } catch {
      return c.notFound();
    }
  });
  return (app) => {
    app.route('/demo', page);
    app.route('/widget', widget);
  };
}
