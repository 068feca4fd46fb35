import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLogger,
  startChatServer,
  silentLogger,
  type ChatServer,
  type ChatServerOptions,
} from '../../../server/index.js';
import { ChatServerClient } from '../../../shared/chat-server-client.js';
import type { Message } from '../../../shared/message.js';

export const APP_ID = 'parleytest';
export const AUTH_KEY = 'test-auth-key';
export const API_KEY = 'test-full-access-key';

export type Target = { type: 'user' | 'group'; id: string };

export interface ChatServiceOptions {
  /** Serve https and wss too, on the same port, with a self-signed localhost certificate. */
  tls?: boolean;
  /** Pages beside the APIs, e.g. the demo page. */
  pages?: ChatServerOptions['pages'];
}
export interface Content {
  category?: 'message' | 'custom' | 'interactive';
  type?: string;
  data: Record<string, unknown>;
}

/**
 * The real chat service (server/) on an ephemeral port with its own data dir, seeded with the
 * people of the widget tests: alice, bob and carol, the agent `knowledge`, and the group `support`
 * of all four. `stop` and `start` restart it on the same port with the same data, as an operator would.
 */
export class ChatService {
  #server: ChatServer | undefined;
  #admin: ChatServerClient | undefined;
  #port = 0;

  private constructor(
    private readonly dataDir: string,
    private readonly options: ChatServiceOptions,
  ) {}

  static async start(options: ChatServiceOptions = {}): Promise<ChatService> {
    const service = new ChatService(await mkdtemp(join(tmpdir(), 'parley-widget-chat-')), options);
    await service.start();
    await service.#seed();
    return service;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** The https address (when started with `tls`), for clients that speak nothing else. */
  get httpsUrl(): string {
    return `https://127.0.0.1:${this.#port}`;
  }

  get port(): number {
    return this.#port;
  }

  /** The server REST API with a fullAccess key. */
  get admin(): ChatServerClient {
    if (!this.#admin) throw new Error('the chat service was never started');
    return this.#admin;
  }

  async start(): Promise<void> {
    this.#server = await startChatServer({
      dataDir: this.dataDir,
      port: this.#port,
      app: { appId: APP_ID, apiKey: API_KEY, authKey: AUTH_KEY },
      // PARLEY_TEST_LOG=1 shows the service's structured log while debugging a test.
      logger: process.env.PARLEY_TEST_LOG ? createLogger() : silentLogger,
      rateLimits: false,
      ...(this.options.tls ? { tls: 'self-signed' as const } : {}),
      ...(this.options.pages ? { pages: this.options.pages } : {}),
    });
    this.#port = this.#server.port;
    this.#admin = new ChatServerClient({
      appId: APP_ID,
      region: 'eu',
      host: this.url,
      apiKey: API_KEY,
    });
  }

  /** Stops the service: sockets drop, requests are refused until `start`. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    await server?.close();
  }

  async close(): Promise<void> {
    await this.stop();
    await rm(this.dataDir, { recursive: true, force: true });
  }

  /**
   * Registers the knowledge agent (the user `knowledge`) with the service's agent registry, so
   * mentioning it in a group sends the conversation to `deploymentUrl` and posts its answer.
   */
  async registerAgent(deploymentUrl: string, namespace: string): Promise<void> {
    const response = await fetch(`${this.url}/v3/ai-agents`, {
      method: 'POST',
      headers: { apikey: API_KEY, appid: APP_ID, 'content-type': 'application/json' },
      body: JSON.stringify({
        agentId: 'knowledge',
        provider: 'mastra',
        deploymentUrl,
        name: 'Knowledge Agent',
        namespace,
        enabled: true,
      }),
    });
    if (!response.ok)
      throw new Error(`registering the agent failed: HTTP ${response.status} ${await response.text()}`);
  }

  /** Sends a message as `sender` through the server REST API (as a backend or a bot would). */
  sendAs(sender: string, receiver: Target, content: Content): Promise<Message> {
    return this.admin.createMessage(sender, {
      receiver: receiver.id,
      receiverType: receiver.type,
      category: content.category ?? 'message',
      type: content.type ?? 'text',
      data: content.data,
    } as Parameters<ChatServerClient['createMessage']>[1]);
  }

  /** Sends files as one media message from `sender` (a multipart upload through the server REST API). */
  async sendFilesAs(
    sender: string,
    receiver: Target,
    type: 'image' | 'file' | 'audio' | 'video',
    files: ReadonlyArray<{ name: string; bytes: Uint8Array }>,
  ): Promise<Message> {
    const form = new FormData();
    form.set('receiver', receiver.id);
    form.set('receiverType', receiver.type);
    form.set('type', type);
    for (const file of files) form.append('files[]', new Blob([Buffer.from(file.bytes)]), file.name);
    const response = await fetch(`${this.url}/v3/messages`, {
      method: 'POST',
      headers: { apikey: API_KEY, appid: APP_ID, onBehalfOf: sender },
      body: form,
    });
    const body = (await response.json()) as { data?: Message };
    if (!response.ok || !body.data)
      throw new Error(`upload failed: HTTP ${response.status} ${JSON.stringify(body)}`);
    return body.data;
  }

  /** Where the service keeps uploaded files (local storage, the default). */
  get mediaDir(): string {
    return join(this.dataDir, 'media');
  }

  async #seed(): Promise<void> {
    for (const [uid, name] of [
      ['alice', 'Alice Martin'],
      ['bob', 'Bob Stone'],
      ['carol', 'Carol Diaz'],
    ]) {
      await this.admin.createUser({ uid: uid!, name: name! });
    }
    await this.admin.createUser({ uid: 'knowledge', name: 'Knowledge Agent', role: '@agentic' });
    await this.admin.createGroup({
      guid: 'support',
      name: 'Support Team',
      type: 'public',
      owner: 'alice',
      // The agent answers in the group, so it is a member like everyone else.
      members: { participants: ['bob', 'carol', 'knowledge'] },
    });
  }
}
