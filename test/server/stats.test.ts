import { beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from './client-support.js';
import {
  APP_ONE,
  APP_TWO,
  ENGINES,
  apiFixtures,
  callServerApi,
  textMessage,
  useTestServer,
} from './support.js';

type DataPoint = { messagesSent: number; readReceipts: number; deliveryReceipts: number; startTime: string };

const sum = (points: DataPoint[], key: 'messagesSent' | 'readReceipts' | 'deliveryReceipts') =>
  points.reduce((total, point) => total + point[key], 0);

/** The REST API's usage stats: active and online users, and messages and receipts per five minutes. */
describe.each(ENGINES)('usage stats on %s', (engine) => {
  const api = useTestServer(engine);
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    const { createUser } = apiFixtures(api.call);
    alice = await createUser('alice');
    bob = await createUser('bob');
    await createUser('carol');
    const sent = await api.call('POST', '/messages', { body: textMessage(bob, 'hello'), onBehalfOf: alice });
    expect(sent.status).toBe(200);
    await api.call('POST', '/messages', { body: textMessage(alice, 'hi back'), onBehalfOf: bob });
    const read = await api.call('POST', `/users/${alice}/conversation/read`, { onBehalfOf: bob, body: {} });
    expect(read.status).toBe(200);
  });

  it('counts the users who sent messages in the range and those online now', async () => {
    const client = await connectClient(api.server, APP_ONE, alice);
    // Presence is stored once the socket is authenticated: wait for it, however long that takes here.
    let stats = await api.call('GET', '/stats');
    for (let attempt = 0; attempt < 200 && stats.body.data?.metrics?.concurrent_users === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      stats = await api.call('GET', '/stats');
    }
    expect(stats.status).toBe(200);
    expect(stats.body.data.metrics).toMatchObject({ active_users: 2, audio_minutes: 0, concurrent_users: 1 });
    const past = await api.call('GET', '/stats?fromDate=0&toDate=1000');
    expect(past.body.data.metrics.active_users).toBe(0);
    expect(past.body.data.time_range).toEqual({ fromDate: 0, toDate: 1000 });
    await client.close();
  });

  it('counts the messages sent and receipts given in twelve five-minute slices of the last hour', async () => {
    const stats = await api.call('GET', '/stats/messages');
    expect(stats.status).toBe(200);
    const points = stats.body.data.dataPoints as DataPoint[];
    expect(points.length).toBe(12);
    expect(sum(points, 'messagesSent')).toBe(2);
    expect(sum(points, 'readReceipts')).toBe(1);
    expect(Number(points[1]?.startTime) - Number(points[0]?.startTime)).toBe(300_000);
  });

  it("keeps an app's stats from another app and from clients, and names a bad date", async () => {
    const other = await callServerApi(api.url, APP_TWO, 'GET', '/stats/messages');
    expect(sum(other.body.data.dataPoints as DataPoint[], 'messagesSent')).toBe(0);
    const client = await connectClient(api.server, APP_ONE, bob, { socket: false });
    const asClient = await client.call('GET', '/stats');
    expect(asClient.status).toBe(404);
    expect(asClient.body.error.code).toBe('ERR_API_NOT_FOUND');
    const bad = await api.call('GET', '/stats?fromDate=yesterday');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toContain('fromDate');
    const reversed = await api.call('GET', '/stats?fromDate=2000&toDate=1000');
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.details.field).toBe('fromDate');
  });
});
