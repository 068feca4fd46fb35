import { join } from 'node:path';
import { expect } from 'vitest';
import type { StorageEngine } from '../../../server/index.js';
import { createTestStore } from '../../server/support.js';
import { launchChromium } from '../../support/browser.js';
import { PageSdkUser, startSdkPageServer } from './browser.js';
import { NodeSdkUser, type SdkUser } from './drivers.js';
import { CONTRACT_APP, startContractServer, type ContractServer } from './fixtures.js';

export type SdkRuntime = 'Node' | 'Chromium';

/** Where CometChat's SDK runs: a Node process per user (browser shims), or a page per user in one Chromium. */
export interface SdkRuntimeHost {
  /** A fresh SDK user; the same `storage` name again is the same storage (a page reload). */
  user(storage: string): Promise<SdkUser>;
  close(): Promise<void>;
}

/** Starts the SDK's runtime against `server`; requests the SDK sends to port 443 reach the server. */
export async function startSdkRuntime(runtime: SdkRuntime, server: ContractServer): Promise<SdkRuntimeHost> {
  const users: SdkUser[] = [];
  if (runtime === 'Node') {
    const caFile = server.server.tls?.certPath ?? '';
    return {
      user: async (storage) => {
        const user = await NodeSdkUser.start({
          caFile,
          storageFile: join(server.dataDir, `${storage}.storage.json`),
          httpsPort: server.server.port,
        });
        users.push(user);
        return user;
      },
      close: async () => {
        await Promise.all(users.map((user) => user.close()));
      },
    };
  }
  const [page, browser] = await Promise.all([
    startSdkPageServer(),
    launchChromium({
      ignoreCertificateErrors: true,
      resolveAllHostsToLoopback: true,
      httpsPortTo: server.server.port,
    }),
  ]);
  const profiles = new Map<string, Awaited<ReturnType<typeof browser.newContext>>>();
  return {
    user: async (storage) => {
      let profile = profiles.get(storage);
      if (profile === undefined) profiles.set(storage, (profile = await browser.newContext()));
      const user = await PageSdkUser.open(profile, page.url);
      users.push(user);
      return user;
    },
    close: async () => {
      for (const user of users) await user.close();
      await browser.close();
      await page.close();
    },
  };
}

/**
 * The runs of every SDK feature suite: each runs in both runtimes and on both engines, paired, so
 * a suite costs two runs rather than four. The runtime decides what the SDK does on the wire; the
 * engine what the server stores: neither depends on the other.
 */
export const SDK_RUNS: ReadonlyArray<{ runtime: SdkRuntime; engine: StorageEngine }> = [
  { runtime: 'Node', engine: 'sqlite' },
  { runtime: 'Chromium', engine: 'postgres' },
];

/** For the `beforeAll` that starts a session: a browser or several SDK processes, logins, on a busy machine. */
export const SESSION_START_TIMEOUT_MS = 120_000;

export interface SdkSession<Uid extends string> {
  server: ContractServer;
  /** One logged-in SDK user per UID, its socket connected. */
  users: Record<Uid, SdkUser>;
  close(): Promise<void>;
}

/**
 * The chat server over TLS on a fresh store of `engine`, and each of `uids` logged in with the SDK
 * in `runtime`, sockets connected. Users other than alice and bob are created first; `prepare` sets
 * up what the users should find once logged in (groups, friends).
 */
export async function startSdkSession<Uid extends string>(
  run: { runtime: SdkRuntime; engine: StorageEngine },
  uids: readonly Uid[],
  prepare: (server: ContractServer) => Promise<void> = async () => undefined,
): Promise<SdkSession<Uid>> {
  const store = await createTestStore(run.engine);
  const server = await startContractServer({ databaseUrl: store.databaseUrl });
  for (const uid of uids) {
    if (uid === 'alice' || uid === 'bob') continue;
    const name = uid.charAt(0).toUpperCase() + uid.slice(1);
    expect((await server.serverApi('POST', '/users', { uid, name })).status).toBe(200);
  }
  await prepare(server);
  const runtime = await startSdkRuntime(run.runtime, server);
  const users = {} as Record<Uid, SdkUser>;
  await Promise.all(
    uids.map(async (uid) => {
      const user = await runtime.user(uid);
      users[uid] = user;
      expect(await user.call('init', CONTRACT_APP.appId, server.sdkHost)).toBeNull();
      await user.call('login', uid, CONTRACT_APP.authKey);
    }),
  );
  const online = async (uid: string) => server.server.client.fanOut.isOnline(CONTRACT_APP.appId, uid);
  const allOnline = async () => (await Promise.all(uids.map(online))).every(Boolean);
  for (let attempt = 0; attempt < 300 && !(await allOnline()); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (!(await allOnline())) throw new Error(`not every socket of ${uids.join(', ')} connected`);
  return {
    server,
    users,
    close: async () => {
      await runtime.close();
      await server.close();
      await store.dispose();
    },
  };
}

/** A `prepare` for `startSdkSession`: the public group `guid` ("Crew" for crew), owned by alice, with these participants. */
export const publicGroup =
  (guid: string, participants: readonly string[]) =>
  async (server: ContractServer): Promise<void> => {
    const created = await server.serverApi('POST', '/groups', {
      guid,
      name: guid.charAt(0).toUpperCase() + guid.slice(1),
      type: 'public',
      owner: 'alice',
      members: { participants },
    });
    expect(created.status).toBe(200);
  };
