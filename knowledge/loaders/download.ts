/**
 * Downloads a URL source under limits: http and https only, one deadline for the whole exchange,
 * redirects followed one hop at a time so each new host is checked (address.ts), and a body read
 * as a stream that stops at the size cap, decompressed size included.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { pipeline } from 'node:stream/promises';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { LoadOptions } from '../types.js';
import { pinnedLookup, resolveAllowedAddresses } from './address.js';
import { SourceError } from './errors.js';

export const URL_DEFAULTS = {
  maxBytes: 50 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 5,
} as const;

export interface Download {
  /** Where the body came from, after redirects. */
  url: URL;
  /** Lower-case media type without parameters, `''` when the server sent none. */
  mimeType: string;
  charset?: string;
  body: Uint8Array;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Parses an http(s) URL, refusing any other scheme by name. */
export function parseHttpUrl(raw: string): URL {
  const url = URL.parse(raw);
  if (!url) throw new SourceError('not a valid URL');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SourceError(`unsupported URL scheme "${url.protocol}": only http and https URLs can be loaded`);
  }
  return url;
}

export async function download(raw: string, options: LoadOptions = {}): Promise<Download> {
  const maxBytes = options.maxBytes ?? URL_DEFAULTS.maxBytes;
  const timeoutMs = options.timeoutMs ?? URL_DEFAULTS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? URL_DEFAULTS.maxRedirects;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let url = parseHttpUrl(raw);
  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await untilAborted(
        resolveAllowedAddresses(url.hostname, options.allowPrivateNetwork ?? false),
        signal,
      );
      const response = await get(url, addresses, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        response.destroy();
        if (redirects >= maxRedirects)
          throw new SourceError(`too many redirects (more than ${maxRedirects})`);
        url = parseHttpUrl(new URL(location, url).href);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new SourceError(`${url.host} answered HTTP ${status}`);
      }
      if (Number(response.headers['content-length']) > maxBytes) {
        response.destroy();
        throw tooLarge(maxBytes);
      }
      const body = await readBody(response, maxBytes);
      return { url, ...parseContentType(response.headers['content-type']), body };
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    if (options.signal?.aborted) throw options.signal.reason;
    if (deadline.aborted)
      throw new SourceError(`${url.host} gave no complete answer within ${timeoutMs / 1000} s`);
    throw networkError(error, url.host);
  }
}

function get(url: URL, addresses: LookupAddress[], signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        agent: false,
        lookup: pinnedLookup(addresses),
        signal,
        headers: {
          'user-agent': 'Parley knowledge agent',
          accept:
            'text/html, application/xhtml+xml, application/pdf, text/markdown, text/plain;q=0.9, */*;q=0.1',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk);
    }
  };
  let decoder: Transform | undefined;
  try {
    decoder = decoderFor(response.headers['content-encoding']);
  } catch (error) {
    response.destroy();
    throw error;
  }
  await (decoder ? pipeline(response, decoder, collect) : pipeline(response, collect));
  // A plain Uint8Array owning its buffer: pdf.js refuses Buffers.
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    case undefined:
    case '':
    case 'identity':
      return undefined;
    default:
      throw new SourceError(`unsupported content encoding "${encoding}"`);
  }
}

function parseContentType(header: string | undefined): { mimeType: string; charset?: string } {
  const [type = '', ...parameters] = (header ?? '').split(';');
  const charset = parameters
    .map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1])
    .find((c) => c !== undefined);
  return { mimeType: type.trim().toLowerCase(), ...(charset ? { charset } : {}) };
}

function tooLarge(maxBytes: number): SourceError {
  return new SourceError(`the download is larger than the limit of ${formatBytes(maxBytes)}`);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

function networkError(error: unknown, host: string): SourceError {
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return new SourceError(`could not connect to ${host}: connection refused`);
  if (code === 'ECONNRESET') return new SourceError(`${host} closed the connection`);
  if (typeof code === 'string' && /CERT|TLS|SSL/.test(code)) {
    return new SourceError(`${host} has a TLS certificate problem (${code})`);
  }
  if (typeof code === 'string' && /^Z_|BROTLI/.test(code)) {
    return new SourceError(`${host} sent a compressed body that does not decompress`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SourceError(`download from ${host} failed: ${message}`);
}

/** Settles with `promise`, or rejects as soon as `signal` aborts (for work that takes no signal). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
