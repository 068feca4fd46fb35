import { ChatConnection } from '../../../shared/chat-connection.js';
import type { DesktopBridge } from '../../bridge.js';

/** Where the browser keeps a connection the user asked it to remember. */
const REMEMBERED_ITEM = 'parley.chatConnection';

/** A connection typed into the browser build of the window: kept in memory unless remembered. */
let typedIn: ChatConnection | undefined;

/**
 * Where Chats connects: in the desktop app, its settings (the key from the secret store); in a
 * browser, what the user typed in this session or asked to remember, else what the agent was
 * started with (`parley start` serves the demo's at `chat-connection.json`).
 */
export async function loadChatConnection(bridge: DesktopBridge | undefined): Promise<ChatConnection | null> {
  if (bridge) return bridge.chatConnection();
  if (typedIn) return typedIn;
  const remembered = ChatConnection.safeParse(JSON.parse(localStorage.getItem(REMEMBERED_ITEM) ?? 'null'));
  if (remembered.success) return remembered.data;
  const response = await fetch('chat-connection.json', { cache: 'no-store' }).catch(() => undefined);
  if (!response?.ok) return null;
  const served = ChatConnection.safeParse(await response.json().catch(() => undefined));
  return served.success ? served.data : null;
}

/** Keeps a connection typed into the browser build: in memory, or in local storage when asked to. */
export function keepChatConnection(connection: ChatConnection, remember: boolean): void {
  typedIn = connection;
  if (remember) localStorage.setItem(REMEMBERED_ITEM, JSON.stringify(connection));
  else localStorage.removeItem(REMEMBERED_ITEM);
}

/** Forgets the connection typed into the browser build, wherever it was kept. */
export function forgetChatConnection(): void {
  typedIn = undefined;
  localStorage.removeItem(REMEMBERED_ITEM);
}
