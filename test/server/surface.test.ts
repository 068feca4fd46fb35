import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ONE, createTestStore, startTestServer, type TestServer, type TestStore } from './support.js';

/**
 * The surface a CometChat app can reach: every operation of CometChat's REST API v3 document and
 * every client endpoint CometChat's SDK 4.2.0 calls, each called once (ids that exist nowhere, an
 * empty JSON body). An operation is routed when it answers anything but 404 `ERR_API_NOT_FOUND`
 * ("No API …", the answer for a path no API serves). The counts are printed and recorded in the
 * README; the test fails when an operation of the must-be-routed lists is not routed, and when any
 * call answers a 5xx.
 */
// The project's shared/ folder sits beside the repository (../shared), on developer machines and in CI.
const REFERENCE = new URL('../../../shared/reference/', import.meta.url);

interface Operation {
  method: string;
  /** The path with its parameters as `{name}`. */
  path: string;
}

/** `/users/{uid}` and `users/{{uid}}` alike → `/users/{}`: one key per route whatever its names. */
const routeKey = ({ method, path }: Operation): string =>
  `${method} ${path.replaceAll(/\{\{?\w+\}?\}/g, '{}')}`;

const unique = (operations: Operation[]): Operation[] => [
  ...new Map(operations.map((operation) => [routeKey(operation), operation])).values(),
];

/** The REST API's operations, deprecated ones left out (as CometChat's own reference does). */
function restOperations(): Operation[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document is untyped JSON
  const spec: any = JSON.parse(readFileSync(new URL('cometchat-chat-apis.json', REFERENCE), 'utf8'));
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, { deprecated?: boolean }>>(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || operation.deprecated === true)
        continue;
      operations.push({ method: method.toUpperCase(), path });
    }
  }
  return unique(operations);
}

/** The SDK's client endpoints; the admin ones (server API) and the calls feature (no calls in Parley) left out. */
const CALLS = new Set(['createCallSession', 'updateCallSession', 'updateCallType']);
function clientEndpoints(): Operation[] {
  const rows = readFileSync(new URL('cometchat-sdk-4.2.0-endpoints.tsv', REFERENCE), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t'));
  return unique(
    rows
      .filter(([name, , , kind]) => kind?.startsWith('client') === true && !CALLS.has(name ?? ''))
      .map(([, method, path]) => ({ method: method ?? 'GET', path: `/${path ?? ''}` })),
  );
}

/**
 * REST operations that must be routed: what Parley serves, in the document's spelling. Grows with
 * every route added; never shrinks.
 */
const MUST_ROUTE_REST = [
  'POST /users',
  'GET /users',
  'GET /users/{uid}',
  'PUT /users/{uid}',
  'DELETE /users/{uid}',
  'PUT /users',
  'DELETE /users',
  'POST /groups',
  'GET /groups',
  'GET /groups/{guid}',
  'PUT /groups/{guid}',
  'DELETE /groups/{guid}',
  'POST /messages',
  'GET /messages',
  'GET /messages/{id}',
  'PUT /messages/{id}',
  'DELETE /messages/{id}',
  'GET /conversations',
  'GET /users/{uid}/conversation',
  'DELETE /users/{uid}/conversation',
  'DELETE /groups/{guid}/conversation',
  'POST /users/{uid}/conversation/delivered',
  'POST /users/{uid}/conversation/read',
  'GET /groups/{guid}/conversation',
  'POST /groups/{guid}/conversation/delivered',
  'POST /groups/{guid}/conversation/read',
  'POST /users/{uid}/auth_tokens',
  'GET /users/{uid}/auth_tokens',
  'DELETE /users/{uid}/auth_tokens',
  'DELETE /users/{uid}/auth_tokens/{authToken}',
  'GET /users/{uid}/auth_tokens/{authToken}',
  'PUT /users/{uid}/auth_tokens/{authToken}',
  'POST /users/{uid}/friends',
  'GET /users/{uid}/friends',
  'DELETE /users/{uid}/friends',
  'GET /moderation/reasons',
  'GET /moderation/reasons/{id}',
  'POST /messages/{id}/flagged',
  'GET /moderation/flagged-messages',
  'PUT /users/{uid}/conversation',
  'DELETE /users/{uid}/conversation/read',
  'PUT /groups/{guid}/conversation',
  'DELETE /groups/{guid}/conversation/read',
  'POST /users/{uid}/blockedusers',
  'DELETE /users/{uid}/blockedusers',
  'GET /users/{uid}/blockedusers',
  'POST /groups/{guid}/members',
  'GET /groups/{guid}/members',
  'DELETE /groups/{guid}/members/{uid}',
  'GET /users/{uid}/messages',
  'GET /groups/{guid}/messages',
  'POST /bots/{uid}/messages',
  'GET /notifications/v1/settings',
  'PATCH /notifications/v1/settings',
  'DELETE /notifications/v1/settings',
  'GET /notifications/v1/preferences',
  'PATCH /notifications/v1/preferences',
  'DELETE /notifications/v1/preferences',
  'GET /notifications/v1/preferences/mute',
  'PUT /notifications/v1/preferences/mute',
  'DELETE /notifications/v1/preferences/mute',
  'GET /notifications/v1/preferences/timezone',
  'PATCH /notifications/v1/preferences/timezone',
  'GET /notifications/v1/logs',
  'GET /messages/{id}/reactions',
  'GET /messages/{id}/reactions/{id}',
  'POST /messages/{id}/reactions/{id}',
  'DELETE /messages/{id}/reactions/{id}',
  'POST /messages/{id}/thread',
  'GET /messages/{id}/thread',
  'GET /notifications/push/v1/providers/fcm',
  'POST /notifications/push/v1/providers/fcm',
  'PUT /notifications/push/v1/providers/fcm',
  'DELETE /notifications/push/v1/providers/fcm/{id}',
  'PUT /notifications/push/v1/providers/fcm/default/{id}',
  'GET /notifications/push/v1/providers/apns',
  'PUT /notifications/push/v1/providers/apns',
  'POST /notifications/push/v1/providers/apns',
  'DELETE /notifications/push/v1/providers/apns/{id}',
  'PUT /notifications/push/v1/providers/apns/default/{id}',
  'GET /notifications/push/v1/tokens',
  'DELETE /notifications/push/v1/tokens',
  'DELETE /notifications/push/v1/tokens/{id}',
  'GET /notifications/v1/contact-details',
  'PATCH /notifications/v1/contact-details',
  'DELETE /notifications/v1/contact-details',
  'GET /notifications/sms/v1/providers/twilio',
  'POST /notifications/sms/v1/providers/twilio',
  'PUT /notifications/sms/v1/providers/twilio',
  'DELETE /notifications/sms/v1/providers/twilio',
  'GET /notifications/email/v1/providers/sendgrid',
  'POST /notifications/email/v1/providers/sendgrid',
  'PUT /notifications/email/v1/providers/sendgrid',
  'DELETE /notifications/email/v1/providers/sendgrid',
  'GET /notifications/push/v1/providers/custom',
  'POST /notifications/push/v1/providers/custom',
  'PUT /notifications/push/v1/providers/custom',
  'DELETE /notifications/push/v1/providers/custom',
  'GET /notifications/sms/v1/providers/custom',
  'POST /notifications/sms/v1/providers/custom',
  'PUT /notifications/sms/v1/providers/custom',
  'DELETE /notifications/sms/v1/providers/custom',
  'GET /notifications/email/v1/providers/custom',
  'POST /notifications/email/v1/providers/custom',
  'PUT /notifications/email/v1/providers/custom',
  'DELETE /notifications/email/v1/providers/custom',
  'PUT /groups/{id}/members/{id}',
  'POST /groups/{id}/bannedusers/{id}',
  'DELETE /groups/{id}/bannedusers/{id}',
  'GET /groups/{id}/bannedusers',
  'GET /stats',
  'GET /stats/messages',
  'POST /apikeys',
  'GET /apikeys',
  'GET /apikeys/{id}',
  'PUT /apikeys/{id}',
  'DELETE /apikeys/{id}',
  'POST /roles',
  'GET /roles',
  'GET /roles/{id}',
  'PUT /roles/{id}',
  'DELETE /roles/{id}',
  'POST /moderation/reasons',
  'PUT /moderation/reasons/{id}',
  'DELETE /moderation/reasons/{id}',
  'POST /notifications/push/v1/tokens',
  'PATCH /moderation/flagged-messages/{id}',
  'GET /moderation/reviewed-messages',
  'POST /moderation/rules',
  'GET /moderation/rules',
  'GET /moderation/rules/{ruleId}',
  'PUT /moderation/rules/{ruleId}',
  'DELETE /moderation/rules/{ruleId}',
  'GET /moderation/rules/{ruleId}/revisions',
  'POST /moderation/keywords',
  'GET /moderation/keywords',
  'GET /moderation/keywords/{keywordId}',
  'PUT /moderation/keywords/{keywordId}',
  'DELETE /moderation/keywords/{keywordId}',
  'GET /moderation/blocked-messages',
  'PATCH /moderation/blocked-messages/{messageId}',
];

/** Client endpoints that must be routed, in the SDK catalogue's spelling. */
const MUST_ROUTE_CLIENT = [
  'GET /settings',
  'GET /me',
  'PUT /me',
  'POST /user_sessions',
  'GET /users',
  'GET /users/{{uid}}',
  'DELETE /me',
  'POST /groups',
  'GET /groups',
  'GET /groups/{{guid}}',
  'GET /groups/{{guid}}/members',
  'POST /groups/{{guid}}/members',
  'DELETE /groups/{{guid}}/members',
  'POST /messages',
  'GET /messages',
  'GET /messages/{{messageId}}',
  'GET /users/{{listId}}/messages',
  'GET /groups/{{listId}}/messages',
  'PUT /messages/{{messageId}}',
  'DELETE /messages/{{messageId}}',
  'DELETE /users/{{uid}}/conversation/read',
  'DELETE /groups/{{guid}}/conversation/read',
  'GET /conversations',
  'GET /users/{{uid}}/conversation',
  'GET /groups/{{guid}}/conversation',
  'DELETE /users/{{uid}}/conversation',
  'DELETE /groups/{{guid}}/conversation',
  'POST /messages/{{messageId}}/flagged',
  'GET /user/messages/{{muid}}',
  'POST /blockedusers',
  'GET /blockedusers',
  'DELETE /blockedusers',
  'PUT /users/{{uid}}/conversation',
  'PUT /groups/{{guid}}/conversation',
  'POST /groups/{{guid}}/conversation/read',
  'POST /users/{{uid}}/conversation/read',
  'POST /groups/{{guid}}/conversation/delivered',
  'POST /users/{{uid}}/conversation/delivered',
  'PATCH /messages/{{messageId}}/interacted',
  'POST /messages/{id}/thread',
  'POST /messages/{id}/reactions/{id}',
  'DELETE /messages/{id}/reactions/{id}',
  'GET /messages/{id}/reactions/{id}',
  'GET /messages/{id}/reactions',
  'GET /messages/{id}/thread',
  'GET /notifications/push/v1/preferences',
  'PATCH /notifications/push/v1/preferences',
  'DELETE /notifications/push/v1/preferences',
  'POST /notifications/push/v1/tokens',
  'DELETE /notifications/push/v1/tokens',
  'PUT /notifications/push/v1/preferences/mute',
  'DELETE /notifications/push/v1/preferences/mute',
  'GET /notifications/push/v1/preferences/mute',
  'PATCH /notifications/v1/preferences/timezone',
  'GET /notifications/v1/preferences/timezone',
  'PUT /groups/{id}',
  'DELETE /groups/{id}',
  'DELETE /groups/{id}/members/{id}',
  'PUT /groups/{id}/members/{id}',
  'POST /groups/{id}/bannedusers/{id}',
  'DELETE /groups/{id}/bannedusers/{id}',
  'PUT /groups/{id}/members',
  'GET /groups/{id}/bannedusers',
  'PUT /groups/{id}/promote',
  'DELETE /groups/{id}/demote',
  'PATCH /groups/{id}/owner',
  'POST /messages/{{messageId}}/pin',
  'DELETE /messages/{{messageId}}/pin',
  'POST /messages/{{messageId}}/save',
  'DELETE /messages/{{messageId}}/save',
  'POST /users/{{uid}}/conversation/pin',
  'DELETE /users/{{uid}}/conversation/pin',
  'POST /groups/{{guid}}/conversation/pin',
  'DELETE /groups/{{guid}}/conversation/pin',
  'GET /threads',
  'GET /groups/{{guid}}/threads',
  'GET /users/{{uid}}/threads',
  'POST /messages/{{messageId}}/thread/subscription',
  'DELETE /messages/{{messageId}}/thread/subscription',
];

/** Ids that name nothing, so no call changes what another call reads. */
const fillPath = (path: string): string =>
  path.replaceAll(/\{\{?(\w+)\}?\}/g, (_, name: string) =>
    /id$/i.test(name) && !/^(uid|guid|muid)$/i.test(name) ? '999999999' : `surface-no-${name.toLowerCase()}`,
  );

interface Answer {
  operation: Operation;
  status: number;
  routed: boolean;
}

async function callOnce(url: string, operation: Operation, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${url}/v3${fillPath(operation.path)}`, {
    method: operation.method,
    headers: { 'content-type': 'application/json', appId: APP_ONE.appId, ...headers },
    body: operation.method === 'GET' ? undefined : '{}',
  });
  const text = await response.text();
  let code: unknown;
  try {
    code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
  } catch {
    code = undefined;
  }
  return {
    operation,
    status: response.status,
    routed: !(response.status === 404 && code === 'ERR_API_NOT_FOUND'),
  };
}

describe('surface: which operations of CometChat’s REST API and SDK Parley routes', () => {
  let store: TestStore;
  let api: TestServer;
  const rest: Answer[] = [];
  const client: Answer[] = [];

  beforeAll(async () => {
    store = await createTestStore('sqlite');
    api = await startTestServer(store);
    await api.call('POST', '/users', { body: { uid: 'surface-caller', name: 'Surface caller' } });
    const token = await api.call('POST', '/users/surface-caller/auth_tokens', { body: {} });
    const authToken = token.body.data.authToken as string;
    for (const operation of restOperations()) {
      rest.push(await callOnce(api.url, operation, { apikey: APP_ONE.apiKey, onBehalfOf: 'surface-caller' }));
    }
    // Logging out (`DELETE /me`) ends the session the other calls use: it goes last.
    const loggingOut = (operation: Operation) => routeKey(operation) === 'DELETE /me';
    const endpoints = clientEndpoints();
    for (const operation of [...endpoints.filter((o) => !loggingOut(o)), ...endpoints.filter(loggingOut)]) {
      client.push(await callOnce(api.url, operation, { authToken }));
    }
    if (process.env.SURFACE_LIST !== undefined) {
      for (const answer of [...rest, ...client])
        console.log(`${answer.routed ? 'routed' : 'No API'} ${answer.status} ${routeKey(answer.operation)}`);
    }
    const routed = (answers: Answer[]) => answers.filter((answer) => answer.routed).length;
    console.log(
      `surface: REST API ${routed(rest)} of ${rest.length} operations routed; ` +
        `SDK client endpoints ${routed(client)} of ${client.length} routed`,
    );
  });
  afterAll(async () => {
    await api?.close();
    await store?.dispose();
  });

  const unrouted = (answers: Answer[], mustRoute: string[]) => {
    const must = new Set(
      mustRoute.map((key) => routeKey({ method: key.split(' ')[0] ?? '', path: key.split(' ')[1] ?? '' })),
    );
    return answers
      .filter((answer) => must.has(routeKey(answer.operation)) && !answer.routed)
      .map((answer) => routeKey(answer.operation));
  };

  it('reads the whole catalogues: 150 REST operations and 100 SDK client endpoints', () => {
    expect([rest.length, client.length]).toEqual([150, 100]);
  });

  it('calls every operation authenticated, so an answer says whether it is routed', () => {
    const refused = [...rest, ...client].filter((answer) => answer.status === 401);
    expect(refused.map((answer) => routeKey(answer.operation))).toEqual([]);
  });

  it('routes every REST operation of the must-be-routed list', () => {
    expect(MUST_ROUTE_REST.length).toBeGreaterThan(0);
    expect(unrouted(rest, MUST_ROUTE_REST)).toEqual([]);
  });

  it('routes every SDK client endpoint of the must-be-routed list', () => {
    expect(unrouted(client, MUST_ROUTE_CLIENT)).toEqual([]);
  });

  it('answers every call, routed or not, without a 5xx', () => {
    const failed = [...rest, ...client].filter((answer) => answer.status >= 500);
    expect(failed.map((answer) => `${routeKey(answer.operation)} → ${answer.status}`)).toEqual([]);
  });
});
