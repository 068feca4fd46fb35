import { APP_ID, AUTH_KEY } from '../../../widget/support/chat-service.js';
import type { PageServer } from './page-server.js';

export interface EmbedPageOptions {
  /** The chat service the widget talks to. */
  host: string;
  uid: string;
  /** `ParleyWidget.launch` options; a `#chat` element exists for embedded layouts. */
  launch: Record<string, unknown>;
  language?: string;
  theme?: string;
  /** Where the script tag goes; the widget must work from either. */
  scriptIn?: 'head' | 'body';
  /** Turns on `pushNotifications` (the worker beside the widget script). */
  pushNotifications?: boolean;
}

/**
 * A page that embeds the widget with one script tag and the embed API, the way a site owner would.
 * Everything is in files served by the page server, so a strict CSP page can load it too.
 */
export function serveEmbedPage(
  server: PageServer,
  path: string,
  options: EmbedPageOptions,
  headers: Record<string, string> = {},
): string {
  const init = {
    appID: APP_ID,
    appRegion: 'eu',
    authKey: AUTH_KEY,
    host: options.host,
    ...(options.language ? { language: options.language } : {}),
    ...(options.theme ? { theme: options.theme } : {}),
    ...(options.pushNotifications ? { pushNotifications: {} } : {}),
  };
  const setupScript = `
    window.widgetErrors = [];
    ParleyWidget.init(${JSON.stringify(init)})
      .then(() => ParleyWidget.login({ uid: ${JSON.stringify(options.uid)} }))
      .then(() => ParleyWidget.launch(${JSON.stringify(options.launch)}))
      .catch((error) => window.widgetErrors.push(String(error)));
  `;
  const script = '<script src="/parley-widget.js"></script>';
  const setup = `<script src="${path}.js"></script>`;
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Parley widget test page</title>
    <link rel="icon" href="data:," />
    ${options.scriptIn === 'body' ? '' : script}
    ${options.scriptIn === 'body' ? '' : setup}
  </head>
  <body>
    <main>
      <h1>A site with a chat</h1>
      <div id="chat"></div>
    </main>
    ${options.scriptIn === 'body' ? `${script}${setup}` : ''}
  </body>
</html>`;
  server.pages.set(path, { body: html, headers });
  server.pages.set(`${path}.js`, { body: setupScript, type: 'text/javascript; charset=utf-8' });
  return `${server.origin}${path}`;
}
