import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_ORIGIN } from '../events.js';
import type { ChatServer } from '../server.js';
import type { DemoConfig } from './page.js';

/** The demo's cast: two people, their group, the knowledge agent that answers in it, and its operator. */
export const DEMO_USERS = [
  { uid: 'alice', name: 'Alice' },
  { uid: 'bob', name: 'Bob' },
];
export const DEMO_GROUP = { guid: 'parley-demo', name: 'Parley demo' };
export const DEMO_AGENT = { uid: 'knowledge', name: 'Knowledge' };
/**
 * Who signs in to the knowledge app's Chats: the group's owner (an admin), so they can take it
 * over and manage its members (the UI Kit's members panel offers its menus at once only to the owner).
 */
export const DEMO_OPERATOR = { uid: 'operator', name: 'Operator' };
export const DEMO_NAMESPACE = 'demo';

/** The sample documents of the demo namespace (server/demo/docs), as raw text to ingest. */
export async function demoDocuments(folder: string): Promise<{ title: string; text: string }[]> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.md')).sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(join(folder, name), 'utf8');
      return { title: /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? name, text };
    }),
  );
}

/**
 * Makes the demo app ready, every start: users alice and bob, the group they share with the
 * `knowledge` agent and the operator (its owner), and the agent registered, enabled and pointed at
 * `generateUrl`. Whatever already exists is kept.
 */
export async function seedDemo(server: ChatServer, generateUrl: string): Promise<DemoConfig> {
  const { app, authKey } = server.seeded;
  const { users, groups } = server.core;
  const groupService = server.core.services.groups;
  for (const user of [...DEMO_USERS, DEMO_OPERATOR]) {
    if ((await users.find(app.appId, user.uid)) === undefined) await users.create(app.appId, user);
  }
  await server.agents.registry.register(app.appId, {
    agentId: DEMO_AGENT.uid,
    provider: 'mastra',
    deploymentUrl: generateUrl,
    name: DEMO_AGENT.name,
    namespace: DEMO_NAMESPACE,
    enabled: true,
  });
  const participants = [...DEMO_USERS.map((user) => user.uid), DEMO_AGENT.uid];
  const admins = [DEMO_OPERATOR.uid];
  if ((await groups.find(app.appId, DEMO_GROUP.guid)) === undefined) {
    await groupService.create(
      app,
      { ...DEMO_GROUP, type: 'public', owner: DEMO_OPERATOR.uid },
      undefined,
      { participants },
      APP_ORIGIN,
    );
  } else {
    const absent = async (uids: string[]) => {
      const found = await Promise.all(uids.map((uid) => groups.member(app.appId, DEMO_GROUP.guid, uid)));
      return uids.filter((_, index) => found[index] === undefined);
    };
    const missing = { participants: await absent(participants), admins: await absent(admins) };
    if (missing.participants.length + missing.admins.length > 0)
      await groupService.addMembers(
        { app, kind: 'server', uid: undefined, origin: APP_ORIGIN },
        DEMO_GROUP.guid,
        missing,
      );
  }
  return {
    appId: app.appId,
    region: app.region,
    authKey,
    users: DEMO_USERS,
    group: DEMO_GROUP,
    agent: DEMO_AGENT,
  };
}
