import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAllowedAddresses } from '../../../knowledge/loaders/address.js';
import { loadSource, SourceError } from '../../../knowledge/loaders/index.js';
import type { LoadOptions } from '../../../knowledge/types.js';
import { buildPdf } from '../support/pdf.js';

const HTML =
  '<html><head><title>Remote Manual</title></head><body><nav>Menu</nav><main><h1>Remote</h1><p>Served over HTTP.</p></main></body></html>';

let server: Server;
let base: string;
let pdf: Uint8Array;

function send(
  res: ServerResponse,
  type: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
) {
  res.writeHead(200, { 'content-type': type, ...headers });
  res.end(body);
}

beforeAll(async () => {
  pdf = await buildPdf([{ lines: ['Remote PDF page one.'] }, { lines: ['Remote PDF page two.'] }], {
    title: 'Remote PDF',
  });
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const hops = Number(url.searchParams.get('hops') ?? 0);
    switch (url.pathname) {
      case '/page':
        return send(res, 'text/html; charset=utf-8', HTML);
      case '/gzipped':
        return send(res, 'text/html', gzipSync(HTML), { 'content-encoding': 'gzip' });
      case '/latin1':
        return send(res, 'text/plain; charset=iso-8859-1', Buffer.from('Caf\xe9 cr\xe8me', 'latin1'));
      case '/report':
        return send(res, 'application/pdf', pdf);
      case '/notes.txt':
        return send(res, 'text/plain', 'Plain notes from a server.');
      case '/docs/readme.md':
        return send(res, 'text/plain', '# Readme\n\nRaw Markdown as text/plain.');
      case '/download/guide.pdf':
        return send(res, 'application/octet-stream', pdf);
      case '/image':
        return send(res, 'image/png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('not here');
      case '/redirect':
        res.writeHead(302, { location: hops > 1 ? `/redirect?hops=${hops - 1}` : '/page' });
        return res.end();
      case '/to-file':
        res.writeHead(301, { location: 'file:///etc/passwd' });
        return res.end();
      case '/big-declared':
        return send(res, 'text/plain', 'x'.repeat(5000));
      case '/big-streamed':
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 50; i++) res.write('y'.repeat(100));
        return res.end();
      case '/stall':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.write('the rest never comes');
      default:
        res.writeHead(500);
        return res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The test server is on 127.0.0.1, so these loads allow private networks. */
function load(path: string, options: LoadOptions = {}) {
  return loadSource({ kind: 'url', url: `${base}${path}` }, { allowPrivateNetwork: true, ...options });
}

describe('URL sources by content type', () => {
  it('reads text/html as HTML with its title', async () => {
    const doc = await load('/page');
    expect(doc).toMatchObject({
      title: 'Remote Manual',
      format: 'html',
      origin: { kind: 'url', url: `${base}/page` },
      pages: [{ text: '# Remote\n\nServed over HTTP.' }],
    });
  });

  it('reads application/pdf as a PDF with pages', async () => {
    const doc = await load('/report');
    expect(doc.format).toBe('pdf');
    expect(doc.title).toBe('Remote PDF');
    expect(doc.pages).toEqual([
      { page: 1, text: 'Remote PDF page one.' },
      { page: 2, text: 'Remote PDF page two.' },
    ]);
  });

  it('reads text/plain as text titled by the last path segment', async () => {
    const doc = await load('/notes.txt');
    expect(doc).toMatchObject({
      format: 'text',
      title: 'notes.txt',
      pages: [{ text: 'Plain notes from a server.' }],
    });
  });

  it('reads a .md URL served as text/plain as Markdown', async () => {
    const doc = await load('/docs/readme.md');
    expect(doc).toMatchObject({ format: 'markdown', title: 'Readme' });
  });

  it('decides by extension when the server sends application/octet-stream', async () => {
    expect((await load('/download/guide.pdf')).format).toBe('pdf');
  });

  it('decodes the charset the server names', async () => {
    expect((await load('/latin1')).pages[0]?.text).toBe('Café crème');
  });

  it('decompresses a gzip body', async () => {
    expect((await load('/gzipped')).title).toBe('Remote Manual');
  });

  it('refuses an unsupported content type by name', async () => {
    await expect(load('/image')).rejects.toThrow(
      new SourceError(
        'unsupported content type "image/png": supported are PDF, HTML, Markdown and plain text',
      ),
    );
  });

  it('reports an HTTP error status', async () => {
    await expect(load('/missing')).rejects.toThrow(`127.0.0.1:${new URL(base).port} answered HTTP 404`);
  });
});

describe('URL limits', () => {
  it('follows redirects up to the cap', async () => {
    const doc = await load('/redirect?hops=3', { maxRedirects: 3 });
    expect(doc.title).toBe('Remote Manual');
    expect(doc.origin).toEqual({ kind: 'url', url: `${base}/redirect?hops=3` });
  });

  it('refuses a redirect chain longer than the cap', async () => {
    await expect(load('/redirect?hops=4', { maxRedirects: 3 })).rejects.toThrow(
      new SourceError('too many redirects (more than 3)'),
    );
  });

  it('refuses a redirect to a non-http scheme', async () => {
    await expect(load('/to-file')).rejects.toThrow('unsupported URL scheme "file:"');
  });

  it('refuses a body whose declared length is over the cap', async () => {
    await expect(load('/big-declared', { maxBytes: 1000 })).rejects.toThrow(
      new SourceError('the download is larger than the limit of 1000 bytes'),
    );
  });

  it('stops reading a streamed body at the cap', async () => {
    await expect(load('/big-streamed', { maxBytes: 1024 })).rejects.toThrow(
      new SourceError('the download is larger than the limit of 1 KiB'),
    );
  });

  it('gives up on a server that does not finish in time', async () => {
    await expect(load('/stall', { timeoutMs: 300 })).rejects.toThrow(
      /^127\.0\.0\.1:\d+ gave no complete answer within 0\.3 s$/,
    );
  });

  it('passes on a cancellation by the caller', async () => {
    const controller = new AbortController();
    const loading = load('/stall', { signal: controller.signal });
    controller.abort(new Error('ingest cancelled'));
    await expect(loading).rejects.toThrow('ingest cancelled');
  });
});

describe('URL address checks', () => {
  it('refuses a loopback address unless private networks are allowed', async () => {
    const url = `${base}/page`;
    await expect(loadSource({ kind: 'url', url })).rejects.toThrow(
      new SourceError('refused: 127.0.0.1 is a loopback address; private networks are not allowed'),
    );
    await expect(loadSource({ kind: 'url', url }, { allowPrivateNetwork: true })).resolves.toMatchObject({
      title: 'Remote Manual',
    });
  });

  it('refuses a host name that resolves to loopback', async () => {
    const url = `http://localhost:${new URL(base).port}/page`;
    await expect(loadSource({ kind: 'url', url })).rejects.toThrow(
      /^refused: localhost resolves to a loopback address/,
    );
  });

  it('connects to a host name through the addresses it checked', async () => {
    const url = `http://localhost:${new URL(base).port}/page`;
    await expect(loadSource({ kind: 'url', url }, { allowPrivateNetwork: true })).resolves.toMatchObject({
      title: 'Remote Manual',
    });
  });

  it('refuses an IPv4-mapped IPv6 loopback address', async () => {
    const url = `http://[::ffff:127.0.0.1]:${new URL(base).port}/page`;
    // The URL parser writes the address as ::ffff:7f00:1.
    await expect(loadSource({ kind: 'url', url })).rejects.toThrow(
      /^refused: ::ffff:7f00:1 is a loopback address/,
    );
  });

  it.each([
    ['10.1.2.3', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'link-local or metadata'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['::1', 'loopback'],
    ['fd00:ec2::254', 'private (unique local)'],
    ['fe80::1', 'link-local or metadata'],
    ['0.0.0.0', 'unspecified'],
  ])('classifies %s as %s without connecting', async (address, range) => {
    await expect(resolveAllowedAddresses(address, false)).rejects.toThrow(
      `refused: ${address} is a ${range} address`,
    );
  });

  it('accepts public addresses', async () => {
    await expect(resolveAllowedAddresses('93.184.215.14', false)).resolves.toEqual([
      { address: '93.184.215.14', family: 4 },
    ]);
    await expect(resolveAllowedAddresses('[2606:4700::1]', false)).resolves.toEqual([
      { address: '2606:4700::1', family: 6 },
    ]);
  });

  it('refuses a non-http scheme', async () => {
    await expect(loadSource({ kind: 'url', url: 'file:///etc/passwd' })).rejects.toThrow(
      new SourceError('unsupported URL scheme "file:": only http and https URLs can be loaded'),
    );
  });

  it('keeps credentials out of the stored URL', async () => {
    const withCredentials = `http://user:secret@127.0.0.1:${new URL(base).port}/page`;
    const secretDoc = await loadSource({ kind: 'url', url: withCredentials }, { allowPrivateNetwork: true });
    expect(secretDoc.origin).toEqual({ kind: 'url', url: `${base}/page` });
  });
});
