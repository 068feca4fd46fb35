import { describe, expect, it } from 'vitest';
import { fieldProblems } from '../../shared/errors.js';
import { AuthFrame, SocketRequest } from '../../shared/realtime.js';

const rejectedFields = (frame: unknown): string[] => {
  const parsed = SocketRequest.safeParse(frame);
  return parsed.success ? [] : fieldProblems(parsed.error).map((problem) => problem.field);
};

describe('frames a client sends', () => {
  it('reads a typing frame the way the SDK sends it: chat as user, the receiver lower-cased, its sender dropped', () => {
    const frame = SocketRequest.parse({
      appId: 'app',
      type: 'typing_indicator',
      receiver: 'Bob',
      receiverType: 'chat',
      sender: 'mallory',
      deviceId: 'WEB-1',
      body: { action: 'ended', user: { uid: 'mallory' }, metadata: { draft: true } },
    });
    expect(frame).toEqual({
      appId: 'app',
      type: 'typing_indicator',
      receiver: 'bob',
      receiverType: 'user',
      deviceId: 'WEB-1',
      body: { action: 'ended', metadata: { draft: true } },
    });
  });

  it('gives a transient message without data an empty one', () => {
    const frame = SocketRequest.parse({
      type: 'transient_message',
      receiver: 'team',
      receiverType: 'groupchat',
      body: {},
    });
    expect(frame).toMatchObject({ receiverType: 'group', body: { data: {} } });
  });

  it('reads a receipt whose message id is a number as the id string', () => {
    const frame = SocketRequest.parse({ type: 'receipts', body: { action: 'read', messageId: 42 } });
    expect(frame.body).toEqual({ action: 'read', messageId: '42' });
  });

  it.each([
    [
      'a receipt with an object as message id',
      { type: 'receipts', body: { action: 'read', messageId: {} } },
      'body.messageId',
    ],
    [
      'a receipt for all readers',
      { type: 'receipts', body: { action: 'readByAll', messageId: '1' } },
      'body.action',
    ],
    [
      'a typing frame to a room',
      { type: 'typing_indicator', receiver: 'bob', receiverType: 'room', body: { action: 'started' } },
      'receiverType',
    ],
    [
      'a typing frame to a path',
      { type: 'typing_indicator', receiver: '../bob', receiverType: 'user', body: { action: 'started' } },
      'receiver',
    ],
    [
      'a typing frame that neither starts nor ends',
      { type: 'typing_indicator', receiver: 'bob', receiverType: 'user', body: { action: 'paused' } },
      'body.action',
    ],
    [
      'a typing frame whose body is a string',
      { type: 'typing_indicator', receiver: 'bob', receiverType: 'user', body: 'started' },
      'body',
    ],
  ])('refuses %s, naming the field', (_name, frame, field) => {
    expect(rejectedFields(frame)).toEqual([field]);
  });
});

describe('the auth frame', () => {
  it('takes the SDK’s auth frame with its presence subscription and roles', () => {
    const frame = AuthFrame.parse({
      appId: 'app',
      deviceId: 'WEB-1',
      type: 'auth',
      sender: 'alice',
      body: { auth: 'jwt', deviceId: 'WEB-1', presenceSubscription: 'ROLES', roles: ['default'], params: {} },
    });
    expect(frame.body).toEqual({
      auth: 'jwt',
      deviceId: 'WEB-1',
      presenceSubscription: 'ROLES',
      roles: ['default'],
    });
  });

  it('refuses a token that is not a string and a presence subscription it does not know', () => {
    expect(AuthFrame.safeParse({ type: 'auth', body: { auth: 7 } }).success).toBe(false);
    expect(
      AuthFrame.safeParse({ type: 'auth', body: { auth: 'jwt', presenceSubscription: 'EVERYONE' } }).success,
    ).toBe(false);
  });
});
