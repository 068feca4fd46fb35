import { ChatConnection } from '../../shared/chat-connection.js';
import { issuePath } from '../../shared/errors.js';

/** Where `parley start` serves the demo's Chats connection: its agent's default address. */
export const DEMO_CONNECTION_URL = 'http://127.0.0.1:4111/chat-connection.json';

const DEMO_TIMEOUT_MS = 3_000;

export class DemoConnectionError extends Error {
  override readonly name = 'DemoConnectionError';
}

/** `localhost`, `127.x.x.x`, each with an optional port: a chat host on this computer. */
function isLoopbackHost(host: string): boolean {
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return name === 'localhost' || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * The local demo's Chats connection, as `parley start` serves it (its auth key and the chat
 * host's certificate fingerprint included). Only a connection to a chat host on this computer is
 * taken: the demo runs here, and nothing it serves may point the app's trust anywhere else.
 */
export async function fetchDemoConnection(url = DEMO_CONNECTION_URL): Promise<ChatConnection> {
  const absent = `No local demo answers at ${new URL(url).origin}/: start it with \`parley start\`, then try again.`;
  let body: unknown;
  try {
    const response = await fetch(url, {
      redirect: 'error',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(DEMO_TIMEOUT_MS),
    });
    if (!response.ok || !/json/i.test(response.headers.get('content-type') ?? '')) {
      throw new DemoConnectionError(absent);
    }
    body = await response.json();
  } catch (error) {
    if (error instanceof DemoConnectionError) throw error;
    throw new DemoConnectionError(absent);
  }
  const parsed = ChatConnection.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DemoConnectionError(
      `The local demo's connection is not usable (${issuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}).`,
    );
  }
  if (parsed.data.host === null || !isLoopbackHost(parsed.data.host)) {
    throw new DemoConnectionError(
      "The local demo's connection names a chat host that is not on this computer; it was not used.",
    );
  }
  return parsed.data;
}
