import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NamespaceList, SearchResponse } from '../../../shared/agent.js';
import { AgentHost } from '../../../desktop/main/agent-host.js';
import {
  applySettingsChange,
  defaultSettings,
  type DesktopSettings,
} from '../../../desktop/main/settings.js';
import type { AgentStatus } from '../../../desktop/main/tray-status.js';
import { freePort } from '../../support/ports.js';
import { temporaryFolder } from './support.js';

/** Settings for a test: loopback, a free port the system picks unless told otherwise. */
const settingsWith = (change: object): DesktopSettings => applySettingsChange(defaultSettings(), change);

describe('the agent hosted by the desktop app', () => {
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  let host: AgentHost;
  let statuses: AgentStatus[];
  let blocker: Server | undefined;
  beforeEach(async () => {
    folder = await temporaryFolder();
    statuses = [];
    host = new AgentHost(
      join(folder.path, 'data'),
      (status) => statuses.push(status),
      () => undefined,
    );
  });
  afterEach(async () => {
    await host.stop();
    await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
    blocker = undefined;
    await folder.remove();
  });

  it('serves the agent API on the configured address and reports itself running', async () => {
    const port = await freePort();
    const agent = await host.start(settingsWith({ port }), {});
    expect(agent).toEqual({
      apiUrl: `http://127.0.0.1:${port}/api`,
      windowUrl: `http://127.0.0.1:${port}/`,
      port,
    });
    expect(await (await fetch(agent.apiUrl)).json()).toMatchObject({ status: 'ok', auth: false });
    expect(statuses.map((status) => status.state)).toEqual(['starting', 'running']);
  });

  it('takes another port when the configured one is taken, and says which', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker?.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    const agent = await host.start(settingsWith({ port: taken }), {});
    expect(agent.port).not.toBe(taken);
    expect(agent.portNote).toBe(`Port ${taken} was taken, so the agent listens on ${agent.port} instead.`);
    expect((await fetch(agent.apiUrl)).status).toBe(200);
  });

  it('requires the API key when one is set', async () => {
    const agent = await host.start(settingsWith({ port: await freePort() }), {
      agentApiKey: 'desk-key-71c0a2',
    });
    expect((await fetch(`${agent.apiUrl}/namespaces`)).status).toBe(401);
    const allowed = await fetch(`${agent.apiUrl}/namespaces`, {
      headers: { authorization: 'Bearer desk-key-71c0a2' },
    });
    expect(allowed.status).toBe(200);
  });

  it('indexes a watched folder after starting', async () => {
    const notes = join(folder.path, 'notes');
    await mkdir(notes);
    await writeFile(join(notes, 'rotor.md'), '# Rotor\n\nThe rotor blades are balanced every 100 hours.\n');
    const agent = await host.start(
      settingsWith({ port: await freePort(), watchedFolders: [{ folder: notes, namespace: 'notes' }] }),
      {},
    );
    await vi.waitFor(
      async () => {
        const listed = NamespaceList.parse(await (await fetch(`${agent.apiUrl}/namespaces`)).json());
        expect(listed.namespaces).toContainEqual(expect.objectContaining({ name: 'notes', documents: 1 }));
      },
      { timeout: 20_000, interval: 100 },
    );
  });

  it('commits what was ingested when it stops, so a restart finds it', async () => {
    const settings = settingsWith({ port: await freePort() });
    const first = await host.start(settings, {});
    await fetch(`${first.apiUrl}/tools/ingestSources`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        namespace: 'kept',
        texts: [{ title: 'Tail rotor', text: 'The gearbox holds 0.4 litres of oil.' }],
      }),
    });
    await host.stop();
    expect(host.status).toEqual({ state: 'stopped' });
    const second = await host.start(settings, {});
    const found = await fetch(`${second.apiUrl}/tools/searchDocs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ namespace: 'kept', query: 'gearbox oil' }),
    });
    expect(SearchResponse.parse(await found.json()).results[0]?.source.title).toBe('Tail rotor');
  });

  it('reports an address it cannot listen on as an error, and can start again afterwards', async () => {
    // 192.0.2.1 (TEST-NET-1) is never an address of this machine.
    await expect(host.start(settingsWith({ host: '192.0.2.1', port: await freePort() }), {})).rejects.toThrow(
      /EADDRNOTAVAIL/,
    );
    expect(host.status).toMatchObject({ state: 'error', message: expect.stringMatching(/EADDRNOTAVAIL/) });
    const agent = await host.start(settingsWith({ port: await freePort() }), {});
    expect((await fetch(agent.apiUrl)).status).toBe(200);
  });
});
