import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../server/index.js';
import { DEFAULT_MAX_UPLOAD_BYTES, FORM_OVERHEAD_BYTES } from '../../server/media/policy.js';
import { MediaSweeper } from '../../server/media/sweep.js';
import { connectClient, type TestClient } from './client-support.js';
import { APP_ONE, APP_TWO, ENGINES, apiFixtures, callServerApi, useTestServer } from './support.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read arbitrary JSON */

const GRACE_SECONDS = 900;

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
const bytes = (length: number, seed = 7) =>
  Buffer.from(Array.from({ length }, (_, i) => (i * seed + 3) % 256));

interface Upload {
  fields?: Record<string, string>;
  files: Array<{ name: string; bytes: Uint8Array<ArrayBuffer>; field?: string }>;
}

/** A multipart `POST /v3/messages` as the SDK's sendMediaMessage sends it: fields, `data` as JSON, `files[]`. */
function formOf({ fields = {}, files }: Upload): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(file.field ?? 'files[]', new File([file.bytes], file.name));
  return form;
}

/**
 * POSTs a multipart form without a length (`Transfer-Encoding: chunked`, as a streaming client
 * sends it): `fields`, then a file part growing 64 KB at a time until `total` bytes went out or the
 * server answered. Answers the status and how many file bytes were sent before the answer.
 */
function streamUpload(
  url: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
  total: number,
): Promise<{ status: number; sent: number }> {
  const boundary = 'parley-streamed-upload';
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const outgoing = httpRequest(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    outgoing.on('response', (response) => {
      answered = true;
      response.resume();
      resolve({ status: response.statusCode ?? 0, sent });
      outgoing.destroy();
    });
    outgoing.on('error', (error) => {
      if (!answered) reject(error);
    });
    for (const [name, value] of Object.entries(fields))
      outgoing.write(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    outgoing.write(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="endless.txt"\r\ncontent-type: text/plain\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.byteLength;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', pump);
          return;
        }
      }
      if (!answered) outgoing.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

/**
 * POSTs a multipart form declaring `declared` bytes (Content-Length) but sending only its first
 * part and no file, then waits: answers the status the server gives without the rest of the body.
 */
function declaredUpload(url: string, headers: Record<string, string>, declared: number): Promise<number> {
  const boundary = 'parley-declared-upload';
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(declared),
      },
    });
    outgoing.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      outgoing.destroy();
    });
    outgoing.on('error', reject);
    outgoing.write(`--${boundary}\r\ncontent-disposition: form-data; name="receiverType"\r\n\r\nuser\r\n`);
  });
}

describe.each(ENGINES)('media messages on %s', (engine) => {
  const api = useTestServer(engine);
  const clients = new Map<string, TestClient>();
  const client = async (uid: string) => {
    const existing = clients.get(uid);
    if (existing !== undefined) return existing;
    const created = await connectClient(api.server, APP_ONE, uid, { socket: false });
    clients.set(uid, created);
    return created;
  };
  const people = async () => {
    const { createUser } = apiFixtures(api.call);
    return { alice: await createUser('alice'), bob: await createUser('bob'), eve: await createUser('eve') };
  };
  const upload = async (uid: string, body: Upload, app: { appId: string } = APP_ONE) => {
    const sender = await client(uid);
    const response = await fetch(`${api.url}/v3/messages`, {
      method: 'POST',
      headers: { appId: app.appId, authToken: sender.authToken, resource: sender.deviceId },
      body: formOf(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const toUser = (receiver: string, type = 'file', data = '{}') => ({
    receiver,
    receiverType: 'user',
    category: 'message',
    type,
    data,
  });
  /** The upload folders stored for a conversation, in the local file store under the data dir. */
  const storedFolders = (appSegment: string, conversationId: string): string[] => {
    const folder = join(mediaDir(), appSegment, conversationId);
    return existsSync(folder) ? readdirSync(folder) : [];
  };
  const mediaDir = () => (api.server.core.media?.files.describe ?? '').replace(/^local:/, '');
  /** A sweep pass at `seconds` (epoch), with the default grace. */
  const sweepAt = (seconds: number) =>
    new MediaSweeper(api.server.core.media!, silentLogger, {
      clock: { now: () => seconds * 1000 },
      intervalMs: false,
      graceSeconds: GRACE_SECONDS,
    }).sweep();

  it('sends an image as the SDK does (multipart, files[]), answering the attachment with its size, dimensions and a thumbnail', async () => {
    const { alice, bob } = await people();
    const image = await png(640, 400);
    const sent = await upload(alice, {
      fields: toUser(bob, 'image', JSON.stringify({ text: 'the view', metadata: { place: 'hill' } })),
      files: [{ name: 'view.png', bytes: image }],
    });
    expect(sent.status).toBe(200);
    const message = sent.body.data;
    expect(message).toMatchObject({ type: 'image', category: 'message', receiver: bob, sender: alice });
    expect(message.data.text).toBe('the view');
    expect(message.data.metadata.place).toBe('hill');
    const [attachment] = message.data.attachments;
    expect(attachment).toMatchObject({
      name: 'view.png',
      extension: 'png',
      mimeType: 'image/png',
      size: image.length,
      metadata: { width: 640, height: 400 },
    });
    expect(attachment.url).toMatch(
      new RegExp(
        `^${api.url}/media/app-one/${message.conversationId}/[0-9a-f]{32}/view\\.png\\?expires=\\d+&signature=`,
      ),
    );
    const thumbnails = message.data.metadata['@injected'].extensions['thumbnail-generation'];
    expect(thumbnails.url_medium).toMatch(/\/view\.thumbnail\.webp\?expires=/);
    expect(thumbnails.attachments[0].data.thumbnails.url_medium).toBe(thumbnails.url_medium);
    const thumbnail = await fetch(thumbnails.url_medium);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    const size = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect([size.width, size.height]).toEqual([480, 300]);
  });

  it("serves the file back byte for byte to the receiver, through the signed URL in the receiver's own read of the message", async () => {
    const { alice, bob } = await people();
    const image = await png(20, 10);
    const sent = await upload(alice, {
      fields: toUser(bob, 'image'),
      files: [{ name: 'dot.png', bytes: image }],
    });
    const read = await (await client(bob)).call('GET', `/messages/${sent.body.data.id}`);
    const response = await fetch(read.body.data.data.attachments[0].url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(image)).toBe(true);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBe('inline; filename=dot.png');
  });

  it('serves a file that is not an image as a download, with its content type', async () => {
    const { alice, bob } = await people();
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), bytes(3000)]);
    const sent = await upload(alice, { fields: toUser(bob), files: [{ name: 'Q3 report.pdf', bytes: pdf }] });
    expect(sent.status).toBe(200);
    const response = await fetch(sent.body.data.data.attachments[0].url);
    expect(Buffer.from(await response.arrayBuffer()).equals(pdf)).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Q3 report.pdf"');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers a byte range of audio and of video with 206 and Content-Range (players seek with them), and 416 for a range outside the file', async () => {
    const { alice, bob } = await people();
    const media = bytes(10_000, 13);
    for (const [type, name, mimeType] of [
      ['audio', 'voice.mp3', 'audio/mpeg'],
      ['video', 'clip.mp4', 'video/mp4'],
    ] as const) {
      const sent = await upload(alice, { fields: toUser(bob, type), files: [{ name, bytes: media }] });
      const url = sent.body.data.data.attachments[0].url;
      const partial = await fetch(url, { headers: { range: 'bytes=100-199' } });
      expect(partial.status, name).toBe(206);
      expect(partial.headers.get('content-range')).toBe('bytes 100-199/10000');
      expect(partial.headers.get('accept-ranges')).toBe('bytes');
      expect(partial.headers.get('content-type')).toBe(mimeType);
      expect(Buffer.from(await partial.arrayBuffer()).equals(media.subarray(100, 200))).toBe(true);
      const outside = await fetch(url, { headers: { range: 'bytes=20000-' } });
      expect(outside.status, name).toBe(416);
      expect(outside.headers.get('content-range')).toBe('bytes */10000');
    }
  });

  it('takes files larger than a JSON body may be, up to the app cap, on the send routes only', async () => {
    const { alice, bob } = await people();
    const archive = bytes(1_500_000, 11);
    const sent = await upload(alice, {
      fields: toUser(bob),
      files: [{ name: 'photos.zip', bytes: archive }],
    });
    expect(sent.status).toBe(200);
    const download = await fetch(sent.body.data.data.attachments[0].url);
    expect(Buffer.from(await download.arrayBuffer()).equals(archive)).toBe(true);
    const elsewhere = await fetch(`${api.url}/v3/users`, {
      method: 'POST',
      headers: { appId: APP_ONE.appId, apikey: APP_ONE.apiKey },
      body: formOf({ fields: { uid: 'big' }, files: [{ name: 'photos.zip', bytes: archive }] }),
    });
    expect(elsewhere.status).toBe(413);
  });

  it('replies in a thread with a file (multipart on POST /messages/{id}/thread)', async () => {
    const { alice, bob } = await people();
    const parent = await (
      await client(alice)
    ).call('POST', '/messages', {
      receiver: bob,
      receiverType: 'user',
      category: 'message',
      type: 'text',
      data: { text: 'send me the slides' },
    });
    const replier = await client(bob);
    const response = await fetch(`${api.url}/v3/messages/${parent.body.data.id}/thread`, {
      method: 'POST',
      headers: { appId: APP_ONE.appId, authToken: replier.authToken },
      body: formOf({ fields: toUser(alice), files: [{ name: 'slides.pdf', bytes: bytes(2000) }] }),
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    expect(body.data.parentId).toBe(parent.body.data.id);
    expect(body.data.data.attachments[0].name).toBe('slides.pdf');
  });

  it('takes a media message with a file from the server API too (multipart, onBehalfOf)', async () => {
    const { alice, bob } = await people();
    const text = Buffer.from('minutes of the meeting\n');
    const form = formOf({
      fields: toUser(bob),
      files: [{ name: 'minutes.txt', bytes: text, field: 'file' }],
    });
    const response = await fetch(`${api.url}/v3/messages`, {
      method: 'POST',
      headers: { appId: APP_ONE.appId, apikey: APP_ONE.apiKey, onBehalfOf: alice },
      body: form,
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    expect(body.data.sender).toBe(alice);
    const file = await fetch(body.data.data.attachments[0].url);
    expect(await file.text()).toBe('minutes of the meeting\n');
    expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  describe('as an attacker', () => {
    it('gets 403 for a forged signature, an altered expiry, or a signed path changed to another file', async () => {
      const { alice, bob } = await people();
      const sent = await upload(alice, { fields: toUser(bob), files: [{ name: 'a.txt', bytes: bytes(10) }] });
      const url = new URL(sent.body.data.data.attachments[0].url);
      const forged = new URL(url);
      forged.searchParams.set('signature', Buffer.alloc(32, 1).toString('base64url'));
      const later = new URL(url);
      later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 600));
      const otherFile = new URL(url);
      otherFile.pathname = url.pathname.replace(/\/[0-9a-f]{32}\//, `/${'0'.repeat(32)}/`);
      const unsigned = new URL(url.pathname, url.origin);
      for (const attempt of [forged, later, otherFile, unsigned]) {
        const response = await fetch(attempt);
        expect(response.status, attempt.toString()).toBe(403);
        expect(((await response.json()) as any).error.code).toBe('ERR_MEDIA_URL_INVALID');
      }
    });

    it('gets 403 for a URL whose signature has expired', async () => {
      const { alice, bob } = await people();
      const sent = await upload(alice, {
        fields: toUser(bob),
        files: [{ name: 'old.txt', bytes: bytes(10) }],
      });
      const url = new URL(sent.body.data.data.attachments[0].url);
      const urls = api.server.core.media!.urls;
      const sign = await urls.signer(Math.floor(Date.now() / 1000) - 2 * urls.ttlSeconds);
      const expired = new URL(sign(url));
      expect(Number(expired.searchParams.get('expires'))).toBeLessThan(Date.now() / 1000);
      expect((await fetch(expired)).status).toBe(403);
    });

    it("sees no URL of a conversation it is not in: another user's message answers as a missing one", async () => {
      const { alice, bob, eve } = await people();
      const sent = await upload(alice, {
        fields: toUser(bob),
        files: [{ name: 'private.txt', bytes: bytes(10) }],
      });
      const read = await (await client(eve)).call('GET', `/messages/${sent.body.data.id}`);
      expect(read.status).toBe(404);
      expect(JSON.stringify(read.body)).not.toContain('/media/');
      const history = await (await client(eve)).call('GET', `/users/${alice}/messages`);
      expect(JSON.stringify(history.body)).not.toContain('private.txt');
    });

    it('cannot upload into a group it is not a member of, and nothing it sent is stored', async () => {
      const { alice, eve } = await people();
      const guid = await apiFixtures(api.call).createGroup(alice);
      const sent = await upload(eve, {
        fields: { receiver: guid, receiverType: 'group', category: 'message', type: 'file' },
        files: [{ name: 'spam.pdf', bytes: bytes(100) }],
      });
      expect(sent.status).toBe(403);
      expect(sent.body.error.code).toBe('ERR_NOT_A_MEMBER');
      expect(storedFolders('app-one', `group_${guid}`)).toEqual([]);
    });

    it("from another app, reads none of this app's messages and cannot move a signed URL to its own app", async () => {
      const { alice, bob } = await people();
      const sent = await upload(alice, {
        fields: toUser(bob),
        files: [{ name: 'app.txt', bytes: bytes(10) }],
      });
      const read = await callServerApi(api.url, APP_TWO, 'GET', `/messages/${sent.body.data.id}`);
      expect(read.status).toBe(404);
      const url = new URL(sent.body.data.data.attachments[0].url);
      url.pathname = url.pathname.replace('/media/app-one/', '/media/app-two/');
      expect((await fetch(url)).status).toBe(403);
    });

    it('gets path traversal names reduced to their last segment, stored inside the conversation folder', async () => {
      const { alice, bob } = await people();
      const sent = await upload(alice, {
        fields: toUser(bob),
        files: [
          { name: '../../../etc/passwd.txt', bytes: bytes(10) },
          { name: '..\\..\\boot.ini.txt', bytes: bytes(10) },
          { name: '.hidden\u0000 "quoted" <x>.pdf', bytes: bytes(10) },
        ],
      });
      expect(sent.status).toBe(200);
      const attachments = sent.body.data.data.attachments;
      expect(attachments.map((attachment: any) => attachment.name)).toEqual([
        'passwd.txt',
        'boot.ini.txt',
        'hidden _quoted_ _x_.pdf',
      ]);
      expect(storedFolders('app-one', sent.body.data.conversationId)).toHaveLength(3);
      const escaped = new URL(attachments[0].url);
      escaped.pathname = escaped.pathname.replace('passwd.txt', '..%2F..%2Fpasswd.txt');
      expect((await fetch(escaped)).status).toBe(403);
    });

    it("gets 413 naming files for an upload over its app's cap, and nothing is stored", async () => {
      const { createUser } = apiFixtures((method, path, options) =>
        callServerApi(api.url, APP_TWO, method, path, options),
      );
      const [sender, receiver] = [await createUser('sender'), await createUser('receiver')];
      const settings = await callServerApi(api.url, APP_TWO, 'PATCH', '/client-settings', {
        body: { maxUploadBytes: 4096 },
      });
      expect(settings.body.data.maxUploadBytes).toBe(4096);
      const member = await connectClient(api.server, APP_TWO, sender, { socket: false });
      const response = await fetch(`${api.url}/v3/messages`, {
        method: 'POST',
        headers: { appId: APP_TWO.appId, authToken: member.authToken },
        body: formOf({ fields: toUser(receiver), files: [{ name: 'big.zip', bytes: bytes(5000) }] }),
      });
      const body = (await response.json()) as any;
      expect(response.status).toBe(413);
      expect(body.error).toMatchObject({ code: 'ERR_FILE_TOO_LARGE', details: { field: 'files' } });
      expect(existsSync(join(mediaDir(), 'app-two'))).toBe(false);
      // App one keeps its own, default cap.
      const { alice, bob } = await people();
      expect(
        (await upload(alice, { fields: toUser(bob), files: [{ name: 'ok.zip', bytes: bytes(5000) }] }))
          .status,
      ).toBe(200);
    });

    it("gets 413 for a streamed upload (no Content-Length) once it passes its app's cap, before the rest is read, on both upload routes", async () => {
      const { createUser } = apiFixtures((method, path, options) =>
        callServerApi(api.url, APP_TWO, method, path, options),
      );
      const [sender, receiver] = [await createUser('streamer'), await createUser('listener')];
      await callServerApi(api.url, APP_TWO, 'PATCH', '/client-settings', { body: { maxUploadBytes: 4096 } });
      const member = await connectClient(api.server, APP_TWO, sender, { socket: false });
      const presigned = await member.call('POST', '/files/upload-url', {
        files: { f1: { fileId: 'f1', name: 'endless.txt', size: 4000 } },
        receiver,
        receiverType: 'user',
      });
      const total = 48 * 1024 * 1024;
      for (const [url, headers, fields] of [
        [
          `${api.url}/v3/messages`,
          { appId: APP_TWO.appId, authToken: member.authToken },
          { receiver, receiverType: 'user', category: 'message', type: 'file' },
        ],
        [presigned.body.data.f1.request.url, {}, {}],
      ] as const) {
        const answer = await streamUpload(url, headers, fields, total);
        expect(answer.status, url).toBe(413);
        // Answered long before the client was done: the server stopped reading at the cap.
        expect(answer.sent, url).toBeLessThan(total / 2);
      }
      expect(existsSync(join(mediaDir(), 'app-two'))).toBe(false);
    });

    it('gets 413 at the default 25 MB cap for a declared length over it, answered before the body is sent', async () => {
      const { alice } = await people();
      const sender = await client(alice);
      const status = await declaredUpload(
        `${api.url}/v3/messages`,
        { appId: APP_ONE.appId, authToken: sender.authToken },
        DEFAULT_MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES + 1,
      );
      expect(status).toBe(413);
    });

    it('gets 415 naming the file for a type off the allow-list (HTML, SVG, executables, no extension), checked before anything is written', async () => {
      const { alice, bob } = await people();
      for (const name of ['page.html', 'logo.svg', 'setup.exe', 'README']) {
        const sent = await upload(alice, {
          fields: toUser(bob),
          files: [
            { name: 'fine.txt', bytes: bytes(10) },
            { name, bytes: bytes(10) },
          ],
        });
        expect(sent.status, name).toBe(415);
        expect(sent.body.error).toMatchObject({
          code: 'ERR_FILE_TYPE_NOT_ALLOWED',
          details: { field: 'files.1' },
        });
      }
      expect(storedFolders('app-one', [alice, bob].sort().join('_user_'))).toEqual([]);
    });

    it('gets 400 naming the file for an image that does not decode', async () => {
      const { alice, bob } = await people();
      const sent = await upload(alice, {
        fields: toUser(bob, 'image'),
        files: [{ name: 'fake.png', bytes: bytes(500) }],
      });
      expect(sent.status).toBe(400);
      expect(sent.body.error.details.field).toBe('files.0');
    });

    it('cannot attach a stored file by its URL to a message of its own (deleting it would delete the original)', async () => {
      const { alice, bob } = await people();
      const sent = await upload(alice, {
        fields: toUser(bob),
        files: [{ name: 'orig.txt', bytes: bytes(10) }],
      });
      const response = await (
        await client(bob)
      ).call('POST', '/messages', {
        receiver: alice,
        receiverType: 'user',
        category: 'message',
        type: 'file',
        data: { attachments: [{ url: sent.body.data.data.attachments[0].url, name: 'orig.txt' }] },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details.field).toBe('data.attachments.0.url');
    });

    it.each([
      ['text', 'message', 'text', { text: 'look at this' }],
      ['custom', 'custom', 'share', { customData: { note: 'look' } }],
    ])(
      'cannot name a stored file in the attachments of a %s message, whose deletion would delete the original',
      async (_kind, category, type, data) => {
        const { alice, bob } = await people();
        const sent = await upload(alice, {
          fields: toUser(bob),
          files: [{ name: 'orig.txt', bytes: bytes(10) }],
        });
        const url = sent.body.data.data.attachments[0].url as string;
        const response = await (
          await client(bob)
        ).call('POST', '/messages', {
          receiver: alice,
          receiverType: 'user',
          category,
          type,
          data: { ...data, attachments: [{ url, name: 'orig.txt' }] },
        });
        expect(response.status).toBe(400);
        expect(response.body.error.details.field).toBe('data.attachments.0.url');
        expect((await fetch(url)).status).toBe(200);
      },
    );
  });

  it('leaves nothing stored when the message is refused after its files were written (an unknown receiver)', async () => {
    const { alice } = await people();
    const sent = await upload(alice, {
      fields: toUser('nobody-here'),
      files: [{ name: 'lost.txt', bytes: bytes(10) }],
    });
    expect(sent.status).toBe(404);
    expect(sent.body.error.code).toBe('ERR_UID_NOT_FOUND');
    expect(storedFolders('app-one', [alice, 'nobody-here'].sort().join('_user_'))).toEqual([]);
  });

  it('refuses a body that is not multipart form data, and files sent to several receivers at once, naming the field', async () => {
    const { alice, bob } = await people();
    const sender = await client(alice);
    const broken = await fetch(`${api.url}/v3/messages`, {
      method: 'POST',
      headers: {
        appId: APP_ONE.appId,
        authToken: sender.authToken,
        'content-type': 'multipart/form-data; boundary=x',
      },
      body: 'not a form',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as any).error.details.field).toBe('body');
    const several = await upload(alice, {
      fields: { ...toUser(bob), multipleReceivers: JSON.stringify({ uids: [bob] }) },
      files: [{ name: 'a.txt', bytes: bytes(10) }],
    });
    expect(several.status).toBe(400);
    expect(several.body.error.details.field).toBe('multipleReceivers');
  });

  describe('presigned uploads (the UI Kit composer: POST /files/upload-url, then the file, then a JSON send)', () => {
    /** What the SDK's PresignClient asks for one file, as `uid`. */
    const presign = async (
      uid: string,
      receiver: string,
      file: { name: string; size: number },
      receiverType = 'user',
    ) =>
      (await client(uid)).call('POST', '/files/upload-url', {
        files: { f1: { fileId: 'f1', ...file, mimeType: 'application/octet-stream' } },
        receiver,
        receiverType,
      });
    /** What the SDK's XhrUploader sends: the request's body fields, then `file`. */
    const put = (
      target: { url: string; body: Record<string, string> },
      name: string,
      content: Uint8Array<ArrayBuffer>,
    ) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(target.body)) form.append(key, value);
      form.append('file', new File([content], name));
      return fetch(target.url, { method: 'POST', body: form });
    };
    /** The JSON send linking an uploaded file (a reply on `path` `/messages/{id}/thread`). */
    const sendWith = async (
      uid: string,
      receiver: string,
      attachment: unknown,
      { type = 'file', path = '/messages' } = {},
    ) =>
      (await client(uid)).call('POST', path, {
        receiver,
        receiverType: 'user',
        category: 'message',
        type,
        data: { attachments: [attachment] },
      });

    it('stores the file at its signed target, and the sender links it in a JSON send; the receiver downloads it byte for byte', async () => {
      const { alice, bob } = await people();
      const content = bytes(3000);
      const presigned = await presign(alice, bob, { name: 'plan.txt', size: content.byteLength });
      expect(presigned.status).toBe(200);
      const { request, attachment } = presigned.body.data.f1;
      expect(attachment).toMatchObject({
        name: 'plan.txt',
        extension: 'txt',
        mimeType: 'text/plain; charset=utf-8',
        size: 3000,
      });
      expect((await put(request, 'plan.txt', content)).status).toBe(204);
      const sent = await sendWith(alice, bob, attachment);
      expect(sent.status).toBe(200);
      const read = await (await client(bob)).call('GET', `/messages/${sent.body.data.id}`);
      const served = await fetch(read.body.data.data.attachments[0].url);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(content);
    });

    it('gives an image uploaded through its target the same dimensions and WebP thumbnail as a multipart upload', async () => {
      const { alice, bob } = await people();
      const image = await png(64, 48);
      const { request, attachment } = (await presign(alice, bob, { name: 'map.png', size: image.byteLength }))
        .body.data.f1;
      expect((await put(request, 'map.png', image)).status).toBe(204);
      const sent = await sendWith(alice, bob, attachment, { type: 'image' });
      expect(sent.status).toBe(200);
      const read = await (await client(bob)).call('GET', `/messages/${sent.body.data.id}`);
      const { attachments, metadata } = read.body.data.data;
      expect(attachments[0]).toMatchObject({ name: 'map.png', size: image.byteLength });
      expect(attachments[0].metadata).toEqual({ width: 64, height: 48 });
      const thumbnails = metadata['@injected'].extensions['thumbnail-generation'];
      expect(thumbnails.attachments[0].data.name).toBe('map.png');
      const thumbnail = await fetch(thumbnails.url_medium);
      expect(thumbnail.headers.get('content-type')).toBe('image/webp');
      const decoded = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
      expect([decoded.format, decoded.width, decoded.height]).toEqual(['webp', 64, 48]);
    });

    it('refuses, naming the file, an upload that is not an image of the type its name declares, and keeps nothing of it', async () => {
      const { alice, bob } = await people();
      const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .jpeg()
        .toBuffer();
      for (const content of [bytes(500), jpeg]) {
        const { request } = (await presign(alice, bob, { name: 'fake.png', size: content.byteLength })).body
          .data.f1;
        const response = await put(request, 'fake.png', content);
        expect(response.status).toBe(400);
        const { error } = (await response.json()) as any;
        expect(error.details.field).toBe('file');
        expect(error.message).toContain('fake.png');
      }
      expect(storedFolders('app-one', [alice, bob].sort().join('_user_'))).toEqual([]);
    });

    it('sweeps an upload never linked once its target expired and the grace passed, and keeps a linked one', async () => {
      const { alice, bob } = await people();
      const media = api.server.core.media!;
      const linked = (await presign(alice, bob, { name: 'kept.txt', size: 10 })).body.data.f1;
      const unlinked = (await presign(alice, bob, { name: 'left.txt', size: 10 })).body.data.f1;
      const neverUploaded = (await presign(alice, bob, { name: 'never.txt', size: 10 })).body.data.f1;
      expect((await put(linked.request, 'kept.txt', bytes(10))).status).toBe(204);
      expect((await put(unlinked.request, 'left.txt', bytes(10))).status).toBe(204);
      expect((await sendWith(alice, bob, linked.attachment)).status).toBe(200);
      const folderOf = (target: { attachment: { url: string } }) =>
        new URL(target.attachment.url).pathname.split('/').at(-2);
      const conversationId = [alice, bob].sort().join('_user_');
      const clock = { now: () => (unlinked.expiresAt + GRACE_SECONDS) * 1000 };
      const sweeper = new MediaSweeper(media, silentLogger, {
        clock,
        intervalMs: false,
        graceSeconds: GRACE_SECONDS,
      });
      expect(await sweeper.sweep()).toBe(0); // not yet: the grace runs until the second after
      expect(storedFolders('app-one', conversationId)).toHaveLength(2);
      clock.now = () => (unlinked.expiresAt + GRACE_SECONDS + 1) * 1000;
      expect(await sweeper.sweep()).toBeGreaterThanOrEqual(2); // other tests' uploads may expire too
      expect(storedFolders('app-one', conversationId)).toEqual([folderOf(linked)]);
      // A target swept before its file arrived takes no file any more (the link has not expired by
      // the real clock): nothing of it is kept.
      expect((await put(neverUploaded.request, 'never.txt', bytes(10))).status).toBe(403);
      expect(storedFolders('app-one', conversationId)).toEqual([folderOf(linked)]);
      expect((await sendWith(alice, bob, unlinked.attachment)).status).toBe(400);
    });

    it('gives an upload back when the send that linked it is refused (a reply to no message): another send may link it', async () => {
      const { alice, bob } = await people();
      const { request, attachment } = (await presign(alice, bob, { name: 'retry.txt', size: 10 })).body.data
        .f1;
      expect((await put(request, 'retry.txt', bytes(10))).status).toBe(204);
      const refused = await sendWith(alice, bob, attachment, { path: '/messages/999999999/thread' });
      expect(refused.status).toBe(404); // no such parent message
      expect((await sendWith(alice, bob, attachment)).status).toBe(200);
      expect((await sendWith(alice, bob, attachment)).status).toBe(400); // linked once only
    });

    describe('after a process died in the middle of a send linking it', () => {
      /** A file uploaded to its target by alice for bob, and the conversation it is in. */
      const uploaded = async (name: string) => {
        const { alice, bob } = await people();
        const target = (await presign(alice, bob, { name, size: 10 })).body.data.f1;
        expect((await put(target.request, name, bytes(10))).status).toBe(204);
        return { alice, bob, target, conversationId: [alice, bob].sort().join('_user_') };
      };

      it('sweeps the file once the grace passed when the send died after the link, before its commit', async () => {
        const { alice, bob, target, conversationId } = await uploaded('dying.txt');
        const media = api.server.core.media!;
        // The send linked the file, then its process died: no message was committed.
        const { claimed } = await media.linkUploads(APP_ONE.appId, alice, conversationId, {
          attachments: [target.attachment],
        });
        expect(claimed).toHaveLength(1);
        expect((await sendWith(alice, bob, target.attachment)).status).toBe(400); // linked once only
        await sweepAt(target.expiresAt + GRACE_SECONDS);
        expect(storedFolders('app-one', conversationId)).toHaveLength(1);
        await sweepAt(target.expiresAt + GRACE_SECONDS + 1);
        expect(storedFolders('app-one', conversationId)).toEqual([]);
      });

      it('keeps the file of a send under way when its target expired: a claim is swept only once the grace passed after it', async () => {
        const { target, conversationId } = await uploaded('slow.txt');
        const media = api.server.core.media!;
        const [folder] = storedFolders('app-one', conversationId);
        const linkedAt = target.expiresAt + GRACE_SECONDS + 10;
        expect(await media.uploads.claim(`app-one/${conversationId}/${folder}/`, linkedAt)).toBeDefined();
        await sweepAt(linkedAt + 1);
        expect(storedFolders('app-one', conversationId)).toEqual([folder]);
        await sweepAt(linkedAt + GRACE_SECONDS + 1);
        expect(storedFolders('app-one', conversationId)).toEqual([]);
      });

      it('keeps the file of a message committed before the process died, its record not yet gone', async () => {
        const { alice, bob, target, conversationId } = await uploaded('committed.txt');
        const { media, apps } = api.server.core;
        const messageService = api.server.core.services.messages;
        const { data } = await media!.linkUploads(APP_ONE.appId, alice, conversationId, {
          attachments: [target.attachment],
        });
        const app = (await apps.find(APP_ONE.appId))!;
        const sent = await messageService.send(
          app,
          alice,
          { receiver: bob, receiverType: 'user', category: 'message', type: 'file', data },
          {},
        );
        // Died here, before the send settled its uploads.
        await sweepAt(target.expiresAt + GRACE_SECONDS + 1);
        expect(storedFolders('app-one', conversationId)).toHaveLength(1);
        const message = 'single' in sent ? sent.single : undefined;
        const served = await fetch((message!.data.attachments as Array<{ url: string }>)[0]!.url);
        expect(served.status).toBe(200);
        expect(Buffer.from(await served.arrayBuffer()).equals(bytes(10))).toBe(true);
      });
    });

    it('answers a type off the allow-list and a file over the cap with an error in its place', async () => {
      const { alice, bob } = await people();
      const html = await presign(alice, bob, { name: 'page.html', size: 10 });
      expect(html.body.data.f1.error.code).toBe('ERR_FILE_TYPE_NOT_ALLOWED');
      const huge = await presign(alice, bob, { name: 'huge.zip', size: 26 * 1024 * 1024 });
      expect(huge.body.data.f1.error.code).toBe('ERR_FILE_TOO_LARGE');
    });

    describe('as an attacker', () => {
      it('cannot presign into a group it is not a member of', async () => {
        const { alice, eve } = await people();
        const guid = await apiFixtures(api.call).createGroup(alice, []);
        const response = await presign(eve, guid, { name: 'x.txt', size: 5 }, 'group');
        expect(response.status).toBe(403);
        expect(response.body.error.code).toBe('ERR_NOT_A_MEMBER');
      });

      it('cannot presign into a one-to-one conversation blocked either way, and no target is recorded', async () => {
        const { alice, bob, eve } = await people();
        expect((await (await client(bob)).call('POST', '/blockedusers', { blockedUids: [eve] })).status).toBe(
          200,
        );
        const pending = async () =>
          (await api.server.core.media!.uploads.expiredBefore(Number.MAX_SAFE_INTEGER, 100_000)).filter(
            (folder) => folder.includes(eve),
          );
        const blocked = await presign(eve, bob, { name: 'x.txt', size: 5 });
        expect(blocked.status).toBe(403);
        expect(blocked.body.error.code).toBe('ERR_BLOCKED_SENDER');
        const blocker = await presign(bob, eve, { name: 'x.txt', size: 5 });
        expect(blocker.status).toBe(403);
        expect(blocker.body.error.code).toBe('ERR_BLOCKED_RECEIVER');
        expect(await pending()).toEqual([]);
        expect((await presign(eve, alice, { name: 'x.txt', size: 5 })).status).toBe(200);
      });

      it("cannot link another user's upload, nor its own into another conversation, nor one never uploaded", async () => {
        const { alice, bob, eve } = await people();
        const { request, attachment } = (await presign(alice, bob, { name: 'mine.txt', size: 10 })).body.data
          .f1;
        expect((await sendWith(alice, bob, attachment)).status).toBe(400); // not uploaded yet
        expect((await put(request, 'mine.txt', bytes(10))).status).toBe(204);
        const byBob = await sendWith(bob, alice, attachment);
        expect(byBob.status).toBe(400);
        expect(byBob.body.error.details.field).toBe('data.attachments.0.url');
        expect((await sendWith(alice, eve, attachment)).status).toBe(400);
      });

      it('gets 403 for an upload link with a forged signature, and 409 uploading twice to one link', async () => {
        const { alice, bob } = await people();
        const { request } = (await presign(alice, bob, { name: 'once.txt', size: 10 })).body.data.f1;
        const forged = new URL(request.url);
        forged.searchParams.set('signature', 'A'.repeat(43));
        expect((await put({ ...request, url: forged.toString() }, 'once.txt', bytes(10))).status).toBe(403);
        expect((await put(request, 'once.txt', bytes(10))).status).toBe(204);
        expect((await put(request, 'once.txt', bytes(12))).status).toBe(409);
      });

      it('gets 400 naming the body, readable cross-origin, for an upload that is not multipart form data; the link still takes the file', async () => {
        const { alice, bob } = await people();
        const { request } = (await presign(alice, bob, { name: 'later.txt', size: 10 })).body.data.f1;
        const broken = await fetch(request.url, {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
          body: 'not a form',
        });
        expect(broken.status).toBe(400);
        expect(broken.headers.get('access-control-allow-origin')).toBe('*');
        expect(((await broken.json()) as any).error).toMatchObject({
          code: 'ERR_BAD_REQUEST',
          details: { field: 'body' },
        });
        expect((await put(request, 'later.txt', bytes(10))).status).toBe(204);
      });
    });
  });

  describe('after a process died in the middle of a multipart send', () => {
    /** A sweep pass at `seconds` after now, past the grace. */
    const sweepLater = (seconds: number) => sweepAt(Math.floor(Date.now() / 1000) + seconds);

    it('sweeps the files it stored for a message never sent, once the grace passed', async () => {
      const { alice, bob } = await people();
      const media = api.server.core.media!;
      const app = (await api.server.core.apps.find(APP_ONE.appId))!;
      const conversationId = [alice, bob].sort().join('_user_');
      // What the send stored before the process died: its files, and no message.
      const checked = await media.check([{ name: 'orphan.txt', bytes: bytes(10) }], 1_000);
      await media.store(app, conversationId, checked, api.url);
      expect(storedFolders('app-one', conversationId)).toHaveLength(1);
      await sweepLater(GRACE_SECONDS - 60);
      expect(storedFolders('app-one', conversationId)).toHaveLength(1);
      await sweepLater(GRACE_SECONDS + 1);
      expect(storedFolders('app-one', conversationId)).toEqual([]);
    });

    it('keeps the files of a message that was sent, even when the record of its upload was left behind', async () => {
      const { alice, bob } = await people();
      const media = api.server.core.media!;
      const sent = await upload(alice, {
        fields: toUser(bob),
        files: [{ name: 'kept.txt', bytes: bytes(10) }],
      });
      expect(sent.status).toBe(200);
      const [folder] = media.foldersOf(APP_ONE.appId, sent.body.data.conversationId, sent.body.data.data);
      // The process died after the message was committed, before its upload's record went.
      await media.uploads.issued(folder!, APP_ONE.appId, Math.floor(Date.now() / 1000));
      await sweepLater(GRACE_SECONDS + 1);
      expect(storedFolders('app-one', sent.body.data.conversationId)).toHaveLength(1);
      expect((await fetch(sent.body.data.data.attachments[0].url)).status).toBe(200);
    });
  });

  it("deletes a message's files with it: its URLs then answer 404", async () => {
    const { alice, bob } = await people();
    const image = await png(30, 30);
    const sent = await upload(alice, {
      fields: toUser(bob, 'image'),
      files: [{ name: 'gone.png', bytes: image }],
    });
    const url = sent.body.data.data.attachments[0].url;
    const thumbnail = sent.body.data.data.metadata['@injected'].extensions['thumbnail-generation'].url_medium;
    expect((await fetch(url)).status).toBe(200);
    const deleted = await (await client(alice)).call('DELETE', `/messages/${sent.body.data.id}`);
    expect(deleted.status).toBe(200);
    for (const link of [url, thumbnail]) {
      const response = await fetch(link);
      expect(response.status).toBe(404);
      expect(((await response.json()) as any).error.code).toBe('ERR_MEDIA_NOT_FOUND');
    }
    expect(storedFolders('app-one', sent.body.data.conversationId)).toEqual([]);
  });
});
