import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ONE,
  createTestStore,
  orderForm,
  startTestServer,
  type TestServer,
  type TestStore,
} from './support.js';
import { connectClient, type TestClient } from './client-support.js';

const SECRET = 'sk-live-do-not-leak-7f3a';

interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A local HTTP receiver standing in for the system a form's apiAction calls. */
async function startReceiver(): Promise<{ origin: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        headers: request.headers,
        body: JSON.parse(text || '{}'),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"echo":"receiver"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The order form whose action carries the CRM's secret headers. */
const survey = (url: string, options: { goal?: string; once?: boolean } = {}) =>
  orderForm(url, {
    ...options,
    headers: { apikey: SECRET, appid: 'crm-app', 'content-type': 'application/json' },
  });

describe('interactive forms, executed by the server', () => {
  let store: TestStore;
  let api: TestServer;
  let allowed: Awaited<ReturnType<typeof startReceiver>>;
  let elsewhere: Awaited<ReturnType<typeof startReceiver>>;
  let alice: TestClient;
  let bob: TestClient;

  /** Alice sends bob a form over the client API; answers the message as alice's client saw it. */
  const sendForm = async (data: unknown) => {
    const sent = await alice.call('POST', '/messages', {
      receiver: 'bob',
      receiverType: 'user',
      category: 'interactive',
      type: 'form',
      data,
    });
    expect(sent.status).toBe(200);
    return sent.body.data as { id: string };
  };
  const submit = (id: string, formData: Record<string, string | string[]>) =>
    bob.call('PATCH', `/messages/${id}/interacted`, { interactions: ['submit'], formData });

  beforeAll(async () => {
    store = await createTestStore('sqlite');
    api = await startTestServer(store);
    allowed = await startReceiver();
    elsewhere = await startReceiver();
    for (const uid of ['alice', 'bob']) await api.call('POST', '/users', { body: { uid, name: uid } });
    const settings = await api.call('PATCH', '/client-settings', {
      body: { apiActionOrigins: [allowed.origin] },
    });
    expect(settings.status).toBe(200);
    alice = await connectClient(api.server, APP_ONE, 'alice');
    bob = await connectClient(api.server, APP_ONE, 'bob');
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await api?.close();
    await allowed?.close();
    await elsewhere?.close();
    await store?.dispose();
  });

  it('keeps secret header values out of every answer and frame a client sees', async () => {
    const form = await sendForm(survey(allowed.origin));
    const frame = await bob.next((f) => f.type === 'message' && f.body?.id === form.id, 'the form frame');
    const seen = [
      form,
      frame,
      (await bob.call('GET', `/messages/${form.id}`)).body,
      (await bob.call('GET', '/users/alice/messages?per_page=50')).body,
      (await bob.call('GET', '/conversations')).body,
      (await submit(form.id, { name: 'Bob', size: 'm' })).body,
      await alice.next(
        (f) => f.type === 'interaction_completed' || f.type === 'message',
        'a frame for alice',
      ),
    ];
    const visible = JSON.stringify(seen);
    expect(visible).not.toContain(SECRET);
    expect(visible).not.toContain('crm-app');
    // The header names stay, so a client can tell an action is configured.
    expect(JSON.stringify(frame.body.data.interactiveData.submitElement.action.headers)).toContain('apikey');
  });

  it('runs the apiAction once per allowed submission, with the form values at dataKey and the real headers', async () => {
    const before = allowed.received.length;
    const form = await sendForm(survey(allowed.origin));
    const answer = await submit(form.id, { name: 'Bob', size: 's', note: 'blue' });
    expect(answer.status).toBe(200);
    expect(answer.body.data.action).toEqual({ elementId: 'submit', status: 'completed', httpStatus: 200 });
    expect(allowed.received.length - before).toBe(1);
    const call = allowed.received.at(-1);
    expect(call?.method).toBe('POST');
    expect(call?.headers.apikey).toBe(SECRET);
    expect(call?.body).toEqual({
      category: 'order',
      type: 'tshirt',
      order: { name: 'Bob', size: 's', note: 'blue' },
    });
  });

  it('refuses a repeated submission of a disableAfterInteracted button, even when both arrive at once', async () => {
    const before = allowed.received.length;
    const form = await sendForm(survey(allowed.origin, { once: true }));
    const answers = await Promise.all([
      submit(form.id, { name: 'Bob', size: 's' }),
      submit(form.id, { name: 'Bob', size: 'm' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    expect(answers.find((answer) => answer.status === 403)?.body.error.code).toBe('ERR_ALREADY_INTERACTED');
    const again = await submit(form.id, { name: 'Bob', size: 'm' });
    expect(again.body.error.code).toBe('ERR_ALREADY_INTERACTED');
    expect(allowed.received.length - before).toBe(1);
  });

  it('takes no more input once the interaction goal is met', async () => {
    const form = await sendForm(survey(allowed.origin, { goal: 'anyAction', once: false }));
    expect((await submit(form.id, { name: 'Bob', size: 's' })).status).toBe(200);
    const late = await submit(form.id, { name: 'Bob', size: 'm' });
    expect(late.status).toBe(403);
    expect(late.body.error.code).toBe('ERR_INTERACTION_GOAL_COMPLETED');
  });

  it('refuses an apiAction towards an origin the app does not allow, calls nothing and records nothing', async () => {
    const form = await sendForm(survey(elsewhere.origin));
    const refused = await submit(form.id, { name: 'Bob', size: 's' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'ERR_ACTION_ORIGIN_NOT_ALLOWED',
      details: { origin: elsewhere.origin },
    });
    expect(elsewhere.received).toHaveLength(0);
    const message = await bob.call('GET', `/messages/${form.id}`);
    expect(message.body.data.data.interactions ?? []).toEqual([]);
  });

  it('checks the submitted values against the form before acting', async () => {
    const before = allowed.received.length;
    const form = await sendForm(survey(allowed.origin));
    const missing = await submit(form.id, { size: 's' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('formData.name: is required');
    const wrongOption = await submit(form.id, { name: 'Bob', size: 'xxl' });
    expect(wrongOption.body.error.message).toBe('formData.size: must be one of the option values');
    const unknown = await submit(form.id, { name: 'Bob', size: 's', colour: 'red' });
    expect(unknown.body.error.message).toBe('formData.colour: the form has no such field');
    expect(allowed.received.length).toBe(before);
  });

  it('lets a form call this server itself without any origin configured', async () => {
    const form = await sendForm({
      interactiveData: {
        title: 'Ping',
        formFields: [],
        submitElement: {
          elementType: 'button',
          elementId: 'submit',
          buttonText: 'Ping',
          action: { actionType: 'apiAction', url: `${api.url}/healthz`, method: 'GET' },
        },
      },
    });
    const answer = await submit(form.id, {});
    expect(answer.body.data.action).toEqual({ elementId: 'submit', status: 'completed', httpStatus: 200 });
  });

  it('holds the same rules on the server API, where the app reports interactions without running the action', async () => {
    const before = allowed.received.length;
    const form = await sendForm(survey(allowed.origin, { once: true }));
    const report = () =>
      api.call('PATCH', `/messages/${form.id}/interacted`, {
        body: { interactions: ['submit'] },
        onBehalfOf: 'bob',
      });
    const first = await report();
    expect(first.status).toBe(200);
    expect(first.body.data.action).toBeUndefined();
    expect((await report()).body.error.code).toBe('ERR_ALREADY_INTERACTED');
    expect(allowed.received.length).toBe(before);
  });

  it('refuses a urlNavigation that is not http(s)', async () => {
    const refused = await alice.call('POST', '/messages', {
      receiver: 'bob',
      receiverType: 'user',
      category: 'interactive',
      type: 'form',
      data: {
        interactiveData: {
          title: 'Bad link',
          formFields: [],
          submitElement: {
            elementType: 'button',
            elementId: 'go',
            buttonText: 'Go',
            action: { actionType: 'urlNavigation', url: 'javascript:alert(1)' },
          },
        },
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^data\.interactiveData\.submitElement\.action\.url: /);
  });
});
