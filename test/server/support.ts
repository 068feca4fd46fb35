import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import {
  silentLogger,
  startChatServer,
  type ChatServer,
  type ChatStore,
  type Logger,
  type RateLimits,
  type StorageEngine,
} from '../../server/index.js';

export const ENGINES: StorageEngine[] = ['sqlite', 'postgres'];

import type { ChatDatabase } from '../../server/db/schema.js';
import { migratedTemplate } from '../support/built.js';
import { createTestStore as createStore, type TestRedis, type TestStore } from '../support/stores.js';

export { testRedis, type TestRedis, type TestStore } from '../support/stores.js';

/**
 * A fresh store location: on PostgreSQL a new database that already holds the chat store's schema
 * (a copy of the run's migrated template: 0.14 s of CPU against 0.34 s to create and migrate one), or an
 * empty one when `empty` is asked (tests of the migrations themselves). SQLite's is an empty dir.
 */
export async function createTestStore(
  engine: StorageEngine,
  options: { empty?: boolean } = {},
): Promise<TestStore> {
  return createStore(
    engine,
    engine === 'postgres' && options.empty !== true ? { template: await migratedTemplate() } : {},
  );
}

export const APP_ONE = { appId: 'app-one', apiKey: 'full-key-one', authKey: 'auth-key-one' };
export const APP_TWO = { appId: 'app-two', apiKey: 'full-key-two', authKey: 'auth-key-two' };

export interface ApiResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  onBehalfOf?: string;
  /** Defaults to app one's fullAccess key; `null` sends no key. */
  apikey?: string | null;
  appId?: string | null;
  headers?: Record<string, string>;
}

export interface TestServer {
  server: ChatServer;
  url: string;
  /** Calls `/v3<path>` as app one unless told otherwise. */
  call(method: string, path: string, options?: CallOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

/**
 * Calls `/v3<path>` of the chat server at `url` with `app`'s fullAccess key and id, unless the
 * options say otherwise: a REST client of the server API, as tests use it.
 */
export async function callServerApi(
  url: string,
  app: { appId?: string; apiKey: string },
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  const apikey = options.apikey === undefined ? app.apiKey : options.apikey;
  if (apikey !== null) headers.apikey = apikey;
  const appId = options.appId === undefined ? app.appId : options.appId;
  if (appId !== null && appId !== undefined) headers.appId = appId;
  if (options.onBehalfOf !== undefined) headers.onBehalfOf = options.onBehalfOf;
  const response = await fetch(`${url}/v3${path}`, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

/** The real server on an ephemeral port, with apps one and two seeded. */
export async function startTestServer(
  store: TestStore,
  options: { rateLimits?: RateLimits | false; redis?: TestRedis; logger?: Logger } = {},
): Promise<TestServer> {
  const server = await startChatServer({
    port: 0,
    dataDir: store.dataDir,
    databaseUrl: store.databaseUrl,
    ...(options.redis === undefined
      ? {}
      : { redisUrl: options.redis.url, redisPrefix: options.redis.prefix }),
    app: APP_ONE,
    rateLimits: options.rateLimits ?? false,
    logger: options.logger ?? silentLogger,
  });
  await server.core.apps.ensure(APP_TWO);
  const call = (method: string, path: string, options?: CallOptions) =>
    callServerApi(server.url, APP_ONE, method, path, options);
  return { server, url: server.url, call, close: () => server.close() };
}

/**
 * Registers the hooks that give the enclosing describe block one real server on a fresh store,
 * started before its tests and removed after them. The returned server is usable inside tests.
 */
export function useTestServer(
  engine: StorageEngine = 'sqlite',
  options: { rateLimits?: RateLimits | false } = {},
): Omit<TestServer, 'close'> {
  let store: TestStore | undefined;
  let started: TestServer | undefined;
  beforeAll(async () => {
    store = await createTestStore(engine);
    started = await startTestServer(store, options);
  });
  afterAll(async () => {
    await started?.close();
    await store?.dispose();
  });
  const running = (): TestServer => {
    if (started === undefined) throw new Error('the test server is not started: use it inside a test');
    return started;
  };
  return {
    get server() {
      return running().server;
    },
    get url() {
      return running().url;
    },
    call: (...args) => running().call(...args),
  };
}

/** A message as the API answered its send. */
export interface SentMessage {
  id: string;
  parentId?: string;
  replyCount?: number;
}

/**
 * Users, groups and messages created through the API (users and groups with unique ids), failing
 * loudly when the API refuses.
 */
export function apiFixtures(call: TestServer['call']): {
  createUser(prefix?: string, extra?: Record<string, unknown>): Promise<string>;
  createGroup(owner: string, participants?: string[]): Promise<string>;
  /** `sender` posts `body` to `path` (`/messages`, or a thread's `/messages/{id}/thread`). */
  sendMessage(sender: string, body: unknown, path?: string): Promise<SentMessage>;
} {
  const created = (what: string, response: ApiResponse): void => {
    if (response.status !== 200)
      throw new Error(`creating ${what} answered ${response.status}: ${JSON.stringify(response.body)}`);
  };
  return {
    async createUser(prefix = 'user', extra = {}) {
      const uid = uniqueId(prefix);
      created(
        `user ${uid}`,
        await call('POST', '/users', { body: { uid, name: `Name of ${uid}`, ...extra } }),
      );
      return uid;
    },
    async createGroup(owner, participants = []) {
      const guid = uniqueId('group');
      const response = await call('POST', '/groups', {
        body: { guid, name: `Group ${guid}`, type: 'public', members: { participants } },
        onBehalfOf: owner,
      });
      created(`group ${guid}`, response);
      return guid;
    },
    async sendMessage(sender, body, path = '/messages') {
      const response = await call('POST', path, { body, onBehalfOf: sender });
      created(`a message of ${sender}`, response);
      return response.body.data as SentMessage;
    },
  };
}

/** A UID no other test uses, so tests sharing one server stay independent. */
let counter = 0;
export const uniqueId = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

/** The data of the service interface's example form message. */
export const FORM_DATA = (
  JSON.parse(
    readFileSync(
      new URL(
        '../shared/fixtures/messages/service-interface.create-form-message.request.json',
        import.meta.url,
      ),
      'utf8',
    ),
  ) as { data: Record<string, unknown> }
).data;

/**
 * The data of a T-shirt order form (name, size, optional note) whose submit button posts the
 * values to `<url>/orders` with `headers`; by default the button acts once per user and the form
 * has no goal.
 */
export function orderForm(
  url: string,
  options: { goal?: string; once?: boolean; headers?: Record<string, string> } = {},
) {
  return {
    interactionGoal: { type: options.goal ?? 'none', elementIds: [] },
    interactiveData: {
      title: 'T-shirt order',
      formFields: [
        { elementType: 'textInput', elementId: 'name', label: 'Name' },
        {
          elementType: 'dropdown',
          elementId: 'size',
          label: 'Size',
          options: [
            { value: 's', label: 'Small' },
            { value: 'm', label: 'Medium' },
          ],
        },
        { elementType: 'textInput', elementId: 'note', label: 'Note', optional: true },
      ],
      submitElement: {
        elementType: 'button',
        elementId: 'submit',
        buttonText: 'Order',
        disableAfterInteracted: options.once ?? true,
        action: {
          actionType: 'apiAction',
          url: `${url}/orders`,
          method: 'POST',
          ...(options.headers === undefined ? {} : { headers: options.headers }),
          payload: { category: 'order', type: 'tshirt' },
          dataKey: 'order',
        },
      },
    },
  };
}

/** The moderation verdict on a message as a send or an approval answered it; undefined when none. */
export const moderationOf = (sent: Pick<ApiResponse, 'body'>): { status: string } | undefined =>
  sent.body.data.data.moderation as { status: string } | undefined;

export const textMessage = (receiver: string, text: string, receiverType: 'user' | 'group' = 'user') => ({
  receiver,
  receiverType,
  category: 'message',
  type: 'text',
  data: { text },
});

/** A GET with a chosen Host header, which `fetch` does not let a caller set. */
export function getWithHost(url: string, host: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'GET', headers: { ...headers, host } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/**
 * A trigger that fails every `write` to `table` (of the rows matching `when`, a condition on
 * `new`), to make a write fail midway; `name` tells several injected at once apart. Returns what
 * removes the trigger again.
 */
export async function injectFailure(
  store: ChatStore,
  table: string,
  write: 'insert' | 'update',
  when?: string,
  name = 'injected_failure',
): Promise<() => Promise<void>> {
  if (store.engine === 'sqlite') {
    await sql
      .raw(
        `create trigger ${name} before ${write} on ${table} ${when === undefined ? '' : `when ${when}`}
         begin select raise(abort, 'injected failure'); end`,
      )
      .execute(store.db);
    return async () => void (await sql.raw(`drop trigger ${name}`).execute(store.db));
  }
  await sql
    .raw(
      `create function ${name}() returns trigger language plpgsql as
       $$ begin raise exception 'injected failure'; end $$`,
    )
    .execute(store.db);
  await sql
    .raw(
      `create trigger ${name} before ${write} on ${table} for each row
       ${when === undefined ? '' : `when (${when})`} execute function ${name}()`,
    )
    .execute(store.db);
  return async () => {
    await sql.raw(`drop trigger ${name} on ${table}`).execute(store.db);
    await sql.raw(`drop function ${name}()`).execute(store.db);
  };
}

/** PostgreSQL: the backend (`pg_backend_pid`) that runs `db`'s statements, a transaction's. */
async function backendPid(db: ChatStore['db']): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
  return rows[0]!.pid;
}

/**
 * PostgreSQL: how many backends a lock of backend `pid` keeps waiting, directly (`depth` 1) or
 * behind one that waits on it (2). A test holding rows as a concurrent change would waits on it.
 */
export async function waitersOn(db: ChatStore['db'], pid: number, depth: 1 | 2 = 1): Promise<number> {
  const { rows } = await sql<{ waiting: number }>`
    select count(*)::int as waiting from pg_stat_activity a
    where ${pid} = any(pg_blocking_pids(a.pid))
       or (${depth} = 2 and exists (
         select 1 from pg_stat_activity b
         where b.pid = any(pg_blocking_pids(a.pid)) and ${pid} = any(pg_blocking_pids(b.pid))))`.execute(db);
  return rows[0]?.waiting ?? 0;
}

/**
 * PostgreSQL: a concurrent change, met as the test's own transaction. `hold` takes its locks;
 * the transaction then keeps them until `release()`, runs `finish` and commits (`done`). `pid` is
 * its backend, for `waitersOn`.
 */
export async function holdRows<T>(
  db: ChatStore['db'],
  hold: (trx: Transaction<ChatDatabase>) => Promise<unknown>,
  finish?: (trx: Transaction<ChatDatabase>) => Promise<T>,
): Promise<{ pid: number; release: () => void; done: Promise<T | undefined> }> {
  let lockTaken!: (pid: number) => void;
  let release!: () => void;
  const holder = new Promise<number>((resolve) => (lockTaken = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const done = db.transaction().execute(async (trx) => {
    const pid = await backendPid(trx);
    await hold(trx);
    lockTaken(pid);
    await released;
    return finish?.(trx);
  });
  return { pid: await holder, release, done };
}

/** Polls `done` until it holds (no deadline: the test's timeout is the bound). */
export async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20));
}
