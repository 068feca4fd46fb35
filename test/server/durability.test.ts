import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnChatServer } from '../support/chat-server-process.js';
import { parleyCommand } from '../support/built.js';

const APP = { appId: 'durable', apiKey: 'durable-full-key', authKey: 'durable-auth-key' };
const dataDir = mkdtempSync(join(tmpdir(), 'parley-durable-'));
const children: ChildProcess[] = [];

/** `parley chat-server` as a child process on an ephemeral port; resolves with its URL. */
async function startServerProcess(): Promise<{ child: ChildProcess; url: string }> {
  const { child, listening } = spawnChatServer({ command: await parleyCommand(), dataDir, app: APP });
  children.push(child);
  return { child, url: await listening };
}

const headers = { apikey: APP.apiKey, 'content-type': 'application/json' };

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('durability', () => {
  it('keeps every message that was answered 200, exactly once, across a SIGKILL', async () => {
    const first = await startServerProcess();
    for (const uid of ['writer', 'reader']) {
      const response = await fetch(`${first.url}/v3/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ uid, name: uid }),
      });
      expect(response.status).toBe(200);
    }
    const acknowledged: string[] = [];
    const killAfter = 300;
    let killed = false;
    const writer = async (worker: number) => {
      for (let n = 0; ; n += 1) {
        const muid = `w${worker}-${n}`;
        try {
          const response = await fetch(`${first.url}/v3/messages`, {
            method: 'POST',
            headers: { ...headers, onBehalfOf: 'writer' },
            body: JSON.stringify({
              receiver: 'reader',
              receiverType: 'user',
              category: 'message',
              type: 'text',
              muid,
              data: { text: muid },
            }),
          });
          if (response.status === 200) acknowledged.push(muid);
          await response.arrayBuffer();
        } catch {
          return; // the server is gone
        }
        if (acknowledged.length >= killAfter && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, worker) => writer(worker)));
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);

    const second = await startServerProcess();
    const stored: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const query = `limit=1000&affix=append${cursor === undefined ? '' : `&id=${cursor}`}`;
      const page = (await (await fetch(`${second.url}/v3/messages?${query}`, { headers })).json()) as {
        data: { muid?: string }[];
        meta: { next: { id?: string } };
      };
      if (page.data.length === 0) break;
      for (const message of page.data) if (message.muid !== undefined) stored.push(message.muid);
      cursor = page.meta.next.id;
    }
    const counts = new Map<string, number>();
    for (const muid of stored) counts.set(muid, (counts.get(muid) ?? 0) + 1);
    const missing = acknowledged.filter((muid) => !counts.has(muid));
    const duplicated = [...counts].filter(([, count]) => count > 1).map(([muid]) => muid);
    expect(missing).toEqual([]);
    expect(duplicated).toEqual([]);
    second.child.kill('SIGTERM');
  });
});
