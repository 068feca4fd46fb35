import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type Frame, type TestClient } from './client-support.js';
import { APP_ONE, apiFixtures, textMessage, useTestServer } from './support.js';

/**
 * The WebSocket as an attacker sees it: every frame is checked against its schema. A frame that is
 * not JSON, not an object, or has fields of the wrong type is answered with an `error` frame that
 * names what is wrong, changes nothing, and leaves the socket and the process serving.
 */
describe('frames a socket sends that the service cannot take', () => {
  const api = useTestServer('sqlite');
  const { createUser } = apiFixtures(api.call);
  let alice: TestClient;
  let bob: TestClient;

  beforeAll(async () => {
    alice = await connectClient(api.server, APP_ONE, await createUser('alice'));
    bob = await connectClient(api.server, APP_ONE, await createUser('bob'));
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
  });

  const rawSocket = async (): Promise<{ socket: WebSocket; frames: Frame[] }> => {
    const socket = new WebSocket(api.url.replace(/^http/, 'ws'));
    const frames: Frame[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return { socket, frames };
  };

  /** The first frame the socket receives from now on. */
  const nextFrame = (socket: WebSocket): Promise<Frame> =>
    new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()) as Frame)));

  it('answers text that is not JSON with an error frame', async () => {
    const { socket } = await rawSocket();
    const answer = nextFrame(socket);
    socket.send('{"type": "receipts", "body": ');
    expect(await answer).toEqual({
      type: 'error',
      body: { code: '400', status: 'ERROR', message: 'the frame is not JSON' },
    });
    socket.close();
  });

  it('answers JSON that is not an object with an error frame', async () => {
    const { socket } = await rawSocket();
    const answer = nextFrame(socket);
    socket.send('[1, 2, 3]');
    expect((await answer).body.message).toBe('the frame is not a JSON object');
    socket.close();
  });

  it('answers a frame whose type is not a string, naming the field', async () => {
    alice.send({ type: { $ne: null }, body: {} });
    const answer = await alice.next((frame) => frame.type === 'error', 'the error frame');
    expect(answer.body.message).toMatch(/^type: /);
  });

  it('names the field of a receipt whose message id is not an id', async () => {
    alice.send({
      type: 'receipts',
      receiver: 'x',
      receiverType: 'user',
      body: { action: 'read', messageId: { $gt: 0 } },
    });
    const answer = await alice.next((frame) => frame.type === 'error', 'the error frame');
    expect(answer.body.message).toMatch(/^body\.messageId: /);
  });

  it('names the field of a typing frame with a receiver of the wrong type, and relays nothing', async () => {
    alice.send({ type: 'typing_indicator', receiver: 42, receiverType: 'user', body: { action: 'started' } });
    const answer = await alice.next((frame) => frame.type === 'error', 'the error frame');
    expect(answer.body.message).toMatch(/^receiver: /);
    alice.send({
      type: 'typing_indicator',
      receiver: bob.uid,
      receiverType: 'room',
      body: { action: 'started' },
    });
    expect((await alice.next((frame) => frame.type === 'error', 'the error frame')).body.message).toMatch(
      /^receiverType: /,
    );
    expect(bob.frames.some((frame) => frame.type === 'typing_indicator')).toBe(false);
  });

  it('refuses an auth frame whose token is not a string, and closes that socket', async () => {
    const { socket, frames } = await rawSocket();
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'auth', body: { auth: { alg: 'none' } } }));
    expect(await closed).toBe(4001);
    expect(frames).toEqual([
      { type: 'auth', body: { code: '401', status: 'ERROR', message: 'invalid auth' } },
    ]);
  });

  it('closes a socket that sends a frame past 64 KiB with 1009, and keeps serving the others', async () => {
    const { socket } = await rawSocket();
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.on('error', () => undefined);
    socket.send(
      JSON.stringify({ type: 'typing_indicator', body: { metadata: { pad: 'x'.repeat(70_000) } } }),
    );
    expect(await closed).toBe(1009);
    const sent = await alice.call('POST', '/messages', textMessage(bob.uid, 'still here'));
    expect(sent.status).toBe(200);
    await bob.next(
      (frame) => frame.type === 'message' && frame.body?.id === sent.body.data.id,
      'the message',
    );
  });

  it('answers no more bad frames in a second than the frame budget allows', async () => {
    const { socket, frames } = await rawSocket();
    for (let index = 0; index < 500; index += 1) socket.send('not json');
    const pong = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        if (data.toString() === '{"action":"pong"}') resolve();
      }),
    );
    socket.send(JSON.stringify({ action: 'ping' }));
    await pong;
    // 20 a second: the 500 are answered only in the seconds they took to arrive.
    expect(frames.filter((frame) => frame.type === 'error').length).toBeLessThan(100);
    socket.close();
  });
});
