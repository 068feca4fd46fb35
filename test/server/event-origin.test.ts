import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventOrigin } from '../../server/index.js';
import type { Message } from '../../shared/message.js';
import { connectClient, type TestClient } from './client-support.js';
import { APP_ONE, apiFixtures, textMessage, useTestServer } from './support.js';

/**
 * Every chat event names its origin: the user who caused it and the SDK session (device) it came
 * from. The realtime fan-out stamps frames with that device, whatever context emits the event.
 */
describe('events carry their origin', () => {
  const api = useTestServer('sqlite');
  const { createUser } = apiFixtures(api.call);
  let alice: string;
  let bob: string;
  let aliceClient: TestClient;
  let bobClient: TestClient;
  const seen: { message: Message; origin: EventOrigin }[] = [];
  const record = (_appId: string, message: Message, origin: EventOrigin) => seen.push({ message, origin });

  beforeAll(async () => {
    alice = await createUser('alice');
    bob = await createUser('bob');
    aliceClient = await connectClient(api.server, APP_ONE, alice);
    bobClient = await connectClient(api.server, APP_ONE, bob);
    api.server.core.events.on('message', record);
  });
  afterAll(async () => {
    api.server.core.events.off('message', record);
    await aliceClient?.close();
    await bobClient?.close();
  });
  afterEach(() => {
    seen.length = 0;
  });

  const originOf = (id: string): EventOrigin | undefined =>
    seen.find((event) => event.message.id === id)?.origin;

  /** Alice's message to bob, sent by the app's backend on her behalf. */
  const sendThroughServerApi = (text: string) =>
    api.call('POST', '/messages', { body: textMessage(bob, text), onBehalfOf: alice });

  it('names the user and the device of a client API send', async () => {
    const sent = await aliceClient.call('POST', '/messages', textMessage(bob, 'from my phone'));
    expect(sent.status).toBe(200);
    expect(originOf(sent.body.data.id)).toEqual({ uid: alice, deviceId: aliceClient.deviceId });
  });

  it('names the onBehalfOf user and no device for a server API send, and its frames carry no device', async () => {
    const sent = await sendThroughServerApi('from the backend');
    expect(sent.status).toBe(200);
    expect(originOf(sent.body.data.id)).toEqual({ uid: alice });
    const frame = await aliceClient.next(
      (candidate) => candidate.type === 'message' && candidate.body?.id === sent.body.data.id,
      'the message sent through the server API',
    );
    expect(frame).not.toHaveProperty('deviceId');
  });

  it('names the editing device for the edited action message', async () => {
    const sent = await aliceClient.call('POST', '/messages', textMessage(bob, 'typo'));
    const edited = await aliceClient.call('PUT', `/messages/${sent.body.data.id}`, { text: 'fixed' });
    expect(edited.status).toBe(200);
    expect(originOf(edited.body.data.id)).toEqual({ uid: alice, deviceId: aliceClient.deviceId });
  });

  it("stamps the frames of an event emitted outside any request with its origin's device", async () => {
    const sent = await sendThroughServerApi('replayed');
    const message = sent.body.data as Message;
    api.server.core.events.emit('message', APP_ONE.appId, message, {
      uid: alice,
      deviceId: 'replay-device',
    });
    const frame = await bobClient.next(
      (candidate) =>
        candidate.type === 'message' && candidate.body?.id === message.id && candidate.deviceId !== undefined,
      'the replayed message',
    );
    expect(frame.deviceId).toBe('replay-device');
  });

  it('stamps the interaction_completed frame with the device that completed the form', async () => {
    const form = {
      interactionGoal: { type: 'anyOf', elementIds: ['ok'] },
      interactiveData: {
        title: 'Coming?',
        formFields: [],
        submitElement: {
          elementType: 'button',
          elementId: 'ok',
          buttonText: 'Yes',
          action: { actionType: 'urlNavigation', url: 'https://example.com/rsvp' },
        },
      },
    };
    const sent = await api.call('POST', '/messages', {
      body: { receiver: bob, receiverType: 'user', category: 'interactive', type: 'form', data: form },
      onBehalfOf: alice,
    });
    expect(sent.status).toBe(200);
    const id = String(sent.body.data.id);
    const submitted = await bobClient.call('PATCH', `/messages/${id}/interacted`, { interactions: ['ok'] });
    expect(submitted.status).toBe(200);
    const frame = await aliceClient.next(
      (candidate) => candidate.type === 'interaction_completed' && candidate.body?.messageId === id,
      'the completed interaction',
    );
    expect(frame.deviceId).toBe(bobClient.deviceId);
  });
});
