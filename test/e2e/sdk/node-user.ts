/**
 * One SDK user in its own Node process (the SDK holds one logged-in user per page), with the few
 * browser shims it needs, driven line by line over stdin/stdout by drivers.ts. Storage lives in a
 * file, so a new process on the same file is a page reload: the SDK resumes its session.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { Agent, FormData as UndiciFormData, buildConnector, fetch as undiciFetch } from 'undici';
import WebSocket from 'ws';
import type {
  CometChat as CometChatSdk,
  CometChatNotifications as NotificationsSdk,
} from '@cometchat/chat-sdk-javascript';
import { sdkOps, type SdkEvent } from './sdk-ops.js';

interface Config {
  caFile: string;
  storageFile: string;
  /** Where the SDK's requests to port 443 go (it asks its online counts there, with no port). */
  httpsPort?: number;
}
const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const ca = readFileSync(config.caFile, 'utf8');

/** Every name resolves to this machine: a host the test did not mean can never reach the network. */
const loopbackLookup = (
  _hostname: string,
  options: unknown,
  callback: (
    error: Error | null,
    address: string | { address: string; family: number }[],
    family?: number,
  ) => void,
) => {
  if (typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true) {
    callback(null, [{ address: '127.0.0.1', family: 4 }]);
  } else callback(null, '127.0.0.1', 4);
};

class FileStorage {
  private readonly items: Record<string, string> = existsSync(config.storageFile)
    ? (JSON.parse(readFileSync(config.storageFile, 'utf8')) as Record<string, string>)
    : {};
  get length(): number {
    return Object.keys(this.items).length;
  }
  key(index: number): string | null {
    return Object.keys(this.items)[index] ?? null;
  }
  getItem(key: string): string | null {
    return this.items[key] ?? null;
  }
  setItem(key: string, value: string): void {
    this.items[key] = String(value);
    this.save();
  }
  removeItem(key: string): void {
    delete this.items[key];
    this.save();
  }
  clear(): void {
    for (const key of Object.keys(this.items)) delete this.items[key];
    this.save();
  }
  private save(): void {
    writeFileSync(config.storageFile, JSON.stringify(this.items));
  }
}

const connectLoopback = buildConnector({ ca, lookup: loopbackLookup });
const dispatcher = new Agent({
  connect: (options, callback) =>
    connectLoopback(
      config.httpsPort !== undefined && options.protocol === 'https:' && (options.port || '443') === '443'
        ? { ...options, port: String(config.httpsPort) }
        : options,
      callback,
    ),
});
const globals = globalThis as Record<string, unknown>;
globals.window = globalThis;
globals.localStorage = new FileStorage();
globals.navigator = { userAgent: 'parley-contract-test', language: 'en-US', onLine: true };
globals.screen = { width: 1920, height: 1080 };
// Read by the SDK's telemetry to guess the page's framework and orientation.
globals.document = { querySelector: () => null, referrer: '' };
globals.matchMedia = () => ({ matches: false });
globals.location = {
  origin: 'https://localhost',
  href: 'https://localhost/',
  hostname: 'localhost',
  protocol: 'https:',
};
// Node's fetch refuses the SDK's `referrer: "no-referrer"` (pitfall 11), and must trust the test certificate.
globals.fetch = (input: string, init: Record<string, unknown> = {}) => {
  const { referrer: _referrer, ...rest } = init;
  return undiciFetch(input, { ...rest, dispatcher } as Parameters<typeof undiciFetch>[1]);
};
// The fetch above is undici's own: its FormData must be the one it knows as a multipart body
// (Node's built-in FormData is another copy of undici's class, which it would send as text).
globals.FormData = UndiciFormData;
globals.WebSocket = class extends WebSocket {
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols, { ca, lookup: loopbackLookup as never });
  }
};

const require = createRequire(import.meta.url);
const { CometChat, CometChatNotifications } = require('@cometchat/chat-sdk-javascript') as {
  CometChat: typeof CometChatSdk;
  CometChatNotifications: typeof NotificationsSdk;
};
const write = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
const ops = sdkOps(CometChat, (event: SdkEvent) => write({ event }), CometChatNotifications);

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, op, args } = JSON.parse(line) as { id: number; op: string; args: never[] };
  const run = ops[op];
  if (run === undefined) {
    write({ id, ok: false, error: `unknown op ${op}` });
    return;
  }
  run(...args).then(
    (result) => write({ id, ok: true, result: result ?? null }),
    (error: unknown) =>
      write({ id, ok: false, error: error instanceof Error ? error.message : JSON.stringify(error) }),
  );
});
write({ ready: true });
