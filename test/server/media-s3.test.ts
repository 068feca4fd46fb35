import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, startChatServer, type ChatServer } from '../../server/index.js';
import { MediaSweeper } from '../../server/media/sweep.js';
import type { S3StoreConfig } from '../../server/storage/index.js';
import { connectClient } from './client-support.js';
import {
  APP_ONE,
  apiFixtures,
  callServerApi,
  createTestStore,
  testRedis,
  type TestStore,
} from './support.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read arbitrary JSON */

const BUCKET = 'parley-media';
/** s3rver's own fixed credentials: it checks every request's signature against them. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * s3rver, a pure-npm S3-compatible server, in a process of its own on an ephemeral port with the
 * bucket made at start: the chat servers reach it over HTTP exactly as they would reach MinIO or S3.
 */
async function startS3rver(directory: string): Promise<{ endpoint: string; process: ChildProcess }> {
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const child = spawn(
    process.execPath,
    [bin, '-d', directory, '-a', '127.0.0.1', '-p', '0', '--configure-bucket', BUCKET],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on (\S+):(\d+)/.exec(line);
      if (match !== null) resolve(`http://${match[1]}:${match[2]}`);
    });
  });
  return { endpoint, process: child };
}

describe('media messages in S3-compatible storage (s3rver in its own process), shared by two servers on PostgreSQL', () => {
  let s3: { endpoint: string; process: ChildProcess };
  let s3Directory: string;
  let store: TestStore;
  let first: ChatServer;
  let second: ChatServer;
  let bucket: S3Client;

  const objects = async (prefix = ''): Promise<string[]> => {
    const page = await bucket.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `chat/${prefix}` }));
    return (page.Contents ?? []).map((object) => object.Key ?? '');
  };

  beforeAll(async () => {
    s3Directory = mkdtempSync(join(tmpdir(), 'parley-s3rver-'));
    s3 = await startS3rver(s3Directory);
    store = await createTestStore('postgres');
    const redis = testRedis();
    const s3Config: S3StoreConfig = {
      bucket: BUCKET,
      endpoint: s3.endpoint,
      prefix: 'chat/',
      credentials: CREDENTIALS,
    };
    const options = {
      port: 0,
      dataDir: store.dataDir,
      databaseUrl: store.databaseUrl,
      redisUrl: redis.url,
      redisPrefix: redis.prefix,
      app: APP_ONE,
      rateLimits: false as const,
      logger: silentLogger,
      s3: s3Config,
    };
    first = await startChatServer(options);
    second = await startChatServer(options);
    bucket = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: CREDENTIALS,
    });
  });
  afterAll(async () => {
    bucket?.destroy();
    await second?.close();
    await first?.close();
    await store?.dispose();
    s3?.process.kill('SIGTERM');
    if (s3Directory !== undefined) rmSync(s3Directory, { recursive: true, force: true });
  });

  const people = async () => {
    const { createUser } = apiFixtures((method, path, options) =>
      callServerApi(first.url, APP_ONE, method, path, options),
    );
    return { alice: await createUser('alice'), bob: await createUser('bob'), eve: await createUser('eve') };
  };
  const upload = async (
    server: ChatServer,
    uid: string,
    receiver: string,
    name: string,
    bytes: Buffer,
    type = 'file',
  ) => {
    const sender = await connectClient(server, APP_ONE, uid, { socket: false });
    const form = new FormData();
    for (const [field, value] of Object.entries({
      receiver,
      receiverType: 'user',
      category: 'message',
      type,
    }))
      form.append(field, value);
    form.append('files[]', new File([new Uint8Array(bytes)], name));
    const response = await fetch(`${server.url}/v3/messages`, {
      method: 'POST',
      headers: { appId: APP_ONE.appId, authToken: sender.authToken },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('stores an uploaded image and its thumbnail as objects under the prefix, and serves the image back byte for byte', async () => {
    const { alice, bob } = await people();
    const image = await sharp({ create: { width: 50, height: 40, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const sent = await upload(first, alice, bob, 'map.png', image, 'image');
    expect(sent.status).toBe(200);
    const conversationId = sent.body.data.conversationId;
    const stored = await objects(`app-one/${conversationId}/`);
    expect(stored.map((key) => key.split('/').at(-1)).sort()).toEqual(['map.png', 'map.thumbnail.webp']);
    const response = await fetch(sent.body.data.data.attachments[0].url);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(image)).toBe(true);
  });

  it('serves, from the second server, a file the first one stored, in byte ranges, with the URL the first one signed', async () => {
    const { alice, bob } = await people();
    const video = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 31) % 256));
    const sent = await upload(first, alice, bob, 'clip.mp4', video, 'video');
    const url = new URL(sent.body.data.data.attachments[0].url);
    const elsewhere = new URL(`${url.pathname}${url.search}`, second.url);
    const partial = await fetch(elsewhere, { headers: { range: 'bytes=1000-' } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe('bytes 1000-19999/20000');
    expect(Buffer.from(await partial.arrayBuffer()).equals(video.subarray(1000))).toBe(true);
  });

  it("removes the message's objects from the bucket when the message is deleted on the other server", async () => {
    const { alice, bob } = await people();
    const sent = await upload(first, alice, bob, 'memo.txt', Buffer.from('memo'));
    const folder = `app-one/${sent.body.data.conversationId}/`;
    expect(await objects(folder)).toHaveLength(1);
    const owner = await connectClient(second, APP_ONE, alice, { socket: false });
    expect((await owner.call('DELETE', `/messages/${sent.body.data.id}`)).status).toBe(200);
    expect(await objects(folder)).toEqual([]);
    expect((await fetch(sent.body.data.data.attachments[0].url)).status).toBe(404);
  });

  describe('presigned uploads (the UI Kit composer)', () => {
    /** Asks `server` for an upload target as `uid`, then posts the file to it as the SDK's uploader does. */
    const presignAndUpload = async (
      server: ChatServer,
      uid: string,
      receiver: string,
      name: string,
      bytes: Buffer,
    ) => {
      const sender = await connectClient(server, APP_ONE, uid, { socket: false });
      const presigned = await sender.call('POST', '/files/upload-url', {
        files: { f1: { fileId: 'f1', name, size: bytes.byteLength } },
        receiver,
        receiverType: 'user',
      });
      const target = presigned.body.data.f1;
      const form = new FormData();
      form.append('file', new File([new Uint8Array(bytes)], name));
      const uploaded = await fetch(target.request.url, { method: 'POST', body: form });
      return { sender, target, status: uploaded.status };
    };
    const sendLinking = (
      sender: Awaited<ReturnType<typeof connectClient>>,
      receiver: string,
      attachment: unknown,
    ) =>
      sender.call('POST', '/messages', {
        receiver,
        receiverType: 'user',
        category: 'message',
        type: 'file',
        data: { attachments: [attachment] },
      });

    it("stores a file uploaded to its target on one server, linked by a send on the other, and serves it byte for byte only through a member's read", async () => {
      const { alice, bob, eve } = await people();
      const pdf = Buffer.from(Array.from({ length: 9_000 }, (_, i) => (i * 13) % 256));
      const { target, status } = await presignAndUpload(first, alice, bob, 'brief.pdf', pdf);
      expect(status).toBe(204);
      const onSecond = await connectClient(second, APP_ONE, alice, { socket: false });
      const sent = await sendLinking(onSecond, bob, target.attachment);
      expect(sent.status).toBe(200);
      expect(await objects(`app-one/${sent.body.data.conversationId}/`)).toHaveLength(1);
      const read = await (
        await connectClient(first, APP_ONE, bob, { socket: false })
      ).call('GET', `/messages/${sent.body.data.id}`);
      const served = await fetch(read.body.data.data.attachments[0].url);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(pdf)).toBe(true);
      const byEve = await (
        await connectClient(first, APP_ONE, eve, { socket: false })
      ).call('GET', `/messages/${sent.body.data.id}`);
      expect(byEve.status).toBe(404);
      expect((await fetch(target.attachment.url)).status).toBe(403); // the URL without a signature
    });

    it('sweeps the objects of an upload never linked, and keeps a linked one', async () => {
      const { alice, bob } = await people();
      const linked = await presignAndUpload(first, alice, bob, 'kept.txt', Buffer.from('kept'));
      const left = await presignAndUpload(
        second,
        alice,
        bob,
        'left.png',
        await sharp({ create: { width: 20, height: 10, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
      );
      expect([linked.status, left.status]).toEqual([204, 204]);
      const sent = await sendLinking(linked.sender, bob, linked.target.attachment);
      expect(sent.status).toBe(200);
      const folder = `app-one/${sent.body.data.conversationId}/`;
      expect(await objects(folder)).toHaveLength(3); // kept.txt, left.png and its thumbnail
      const sweeper = new MediaSweeper(second.core.media!, silentLogger, {
        clock: { now: () => (left.target.expiresAt + 61) * 1000 },
        intervalMs: false,
        graceSeconds: 60,
      });
      expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
      expect((await objects(folder)).map((key) => key.split('/').at(-1))).toEqual(['kept.txt']);
    });
    it('sweeps the objects of an upload whose send died after linking it, before its commit', async () => {
      const { alice, bob } = await people();
      const { target, status } = await presignAndUpload(first, alice, bob, 'lost.txt', Buffer.from('lost'));
      expect(status).toBe(204);
      const conversationId = [alice, bob].sort().join('_user_');
      // The send linked the file on the first server, whose process then died.
      const { claimed } = await first.core.media!.linkUploads(APP_ONE.appId, alice, conversationId, {
        attachments: [target.attachment],
      });
      expect(claimed).toHaveLength(1);
      expect(await objects(`app-one/${conversationId}/`)).toHaveLength(1);
      const sweeper = new MediaSweeper(second.core.media!, silentLogger, {
        clock: { now: () => (target.expiresAt + 61) * 1000 },
        intervalMs: false,
        graceSeconds: 60,
      });
      expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
      expect(await objects(`app-one/${conversationId}/`)).toEqual([]);
    });
  });

  it('leaves no object behind when the message is refused after its files were stored', async () => {
    const { alice } = await people();
    const sent = await upload(first, alice, 'no-such-user', 'lost.txt', Buffer.from('lost'));
    expect(sent.status).toBe(404);
    expect(await objects(`app-one/${[alice, 'no-such-user'].sort().join('_user_')}/`)).toEqual([]);
  });
});
