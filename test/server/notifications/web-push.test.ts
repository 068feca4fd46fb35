import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebPushMessage } from '../../../shared/web-push.js';
import webpush from 'web-push';
import { sendWebPush } from '../../../server/notifications/providers/web-push.js';
import { PushServiceStandIn, verifyVapid } from './mail-and-push.js';

const message: WebPushMessage = {
  title: 'Alice',
  body: 'Lunch at noon?',
  tag: '42',
  conversationId: 'alice_user_bob',
  sender: 'alice',
  receiver: 'bob',
  receiverType: 'user',
  type: 'chat',
  sentAt: 1_767_614_400,
};

const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@chat.example' };
let pushService: PushServiceStandIn;

beforeEach(async () => {
  pushService = await PushServiceStandIn.start();
});
afterEach(async () => {
  await pushService.close();
});

describe('Web Push', () => {
  it('sends the message encrypted for the subscription, which only its keys decrypt', async () => {
    const browser = pushService.subscription('/push/bob-1');
    const outcome = await sendWebPush(browser.toJSON(), message, vapid, 5_000);
    expect(outcome).toEqual({ status: 'delivered' });
    const [push] = pushService.pushesTo('/push/bob-1');
    expect(push?.headers['content-encoding']).toBe('aes128gcm');
    expect(push?.body.includes(Buffer.from('Lunch'))).toBe(false);
    expect(JSON.parse(browser.decrypt(push!.body))).toEqual(message);
    const stranger = pushService.subscription('/push/bob-1');
    expect(() => stranger.decrypt(push!.body)).toThrow();
  });

  it("signs a VAPID token with the app's key for the push service's origin", async () => {
    const browser = pushService.subscription('/push/bob-2');
    await sendWebPush(browser.toJSON(), message, vapid, 5_000);
    const [push] = pushService.pushesTo('/push/bob-2');
    const { publicKey, claims } = await verifyVapid(push!, pushService.url);
    expect(publicKey).toBe(vapid.publicKey);
    expect(claims.sub).toBe('mailto:ops@chat.example');
    expect(push?.headers.ttl).toBe('86400');
  });

  it.each([404, 410])('reports a subscription the push service answers %i to as gone', async (status) => {
    pushService.statusByPath.set('/push/expired', status);
    const outcome = await sendWebPush(
      pushService.subscription('/push/expired').toJSON(),
      message,
      vapid,
      5_000,
    );
    expect(outcome).toEqual({ status: 'gone', error: `HTTP ${status}` });
  });

  it('reports other refusals as failures to retry, not as gone', async () => {
    pushService.statusByPath.set('/push/busy', 429);
    const outcome = await sendWebPush(pushService.subscription('/push/busy').toJSON(), message, vapid, 5_000);
    expect(outcome).toEqual({ status: 'failed', error: 'HTTP 429' });
  });

  it('reports keys that are no P-256 point as gone without calling the push service', async () => {
    const subscription = {
      ...pushService.subscription('/push/bad-keys').toJSON(),
      keys: { p256dh: 'AAAA', auth: 'AAAA' },
    };
    const outcome = await sendWebPush(subscription, message, vapid, 5_000);
    expect(outcome.status).toBe('gone');
    expect(pushService.pushes).toEqual([]);
  });
});
