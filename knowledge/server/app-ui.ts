import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { ChatConnection } from '../../shared/chat-connection.js';

/**
 * The knowledge app window's policy: everything from this server, nothing remote, no inline
 * script or style, no eval (pdf.js runs with eval off), the PDF worker from this origin. Chats
 * connects to a chat service the user configures (CometChat's SDK speaks only https and wss; a
 * page on loopback reaches a chat service on loopback over plain http and ws, so those two loopback
 * names, on any port, and no others), and shows the avatars it names.
 */
export const APP_UI_CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: [
    "'self'",
    'https:',
    'wss:',
    'http://localhost:*',
    'ws://localhost:*',
    'http://127.0.0.1:*',
    'ws://127.0.0.1:*',
  ],
  workerSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

export interface AppUiOptions {
  /**
   * Where the window's Chats connects when nothing else is set up: `parley start` hands it the
   * demo's chat service and operator (the demo's auth key is printed and meant for pages anyway).
   * Served as `/chat-connection.json`, never cached.
   */
  chatConnection?: () => ChatConnection | undefined;
}

/** The built window (`npm run build` writes it to dist/desktop/renderer/), served at `/` with its policy. */
export function knowledgeAppUi(folder: string, options: AppUiOptions = {}): Hono {
  const app = new Hono();
  const headers = secureHeaders({
    contentSecurityPolicy: APP_UI_CONTENT_SECURITY_POLICY,
    crossOriginEmbedderPolicy: false,
    // Served over plain HTTP on this machine: a transport-security header would mean nothing.
    strictTransportSecurity: false,
    referrerPolicy: 'no-referrer',
  });
  const files = serveStatic({ root: folder });
  const { chatConnection } = options;
  if (chatConnection) {
    app.get('/chat-connection.json', headers, (c) => {
      const connection = chatConnection();
      c.header('cache-control', 'no-store');
      return connection ? c.json(connection) : c.json({ error: 'no chat connection is set up' }, 404);
    });
  }
  // Every path but those under /api: a catch-all GET would also claim /api/... routes and turn
  // their "405, use POST" answers into 404s.
  for (const path of ['/:file{[^/]*}', '/:folder{(?!api$)[^/]+}/*']) app.get(path, headers, files);
  return app;
}

/** Where the build puts the window, seen from this module in the sources or in dist/. */
export function builtAppUiFolder(): string | undefined {
  const built = import.meta.url.endsWith('.js');
  const folder = fileURLToPath(
    new URL(built ? '../../desktop/renderer/' : '../../dist/desktop/renderer/', import.meta.url),
  );
  return existsSync(`${folder}index.html`) ? folder : undefined;
}
