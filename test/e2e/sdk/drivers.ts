import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { SdkEvent } from './sdk-ops.js';
import { sdkNodeUserCommand } from '../../support/built.js';

/** One SDK user, whatever runs it: ops answer JSON, listener events are kept until taken. */
export interface SdkUser {
  call<T = unknown>(op: string, ...args: unknown[]): Promise<T>;
  /** The first event (past or future) that matches, removed from the backlog. PARLEY_SDK_DEBUG=1 echoes the SDK's own output. */
  next(match: (event: SdkEvent) => boolean, what: string): Promise<SdkEvent>;
  /** Events so far, for asserting that something did not happen. */
  events(): SdkEvent[];
  close(): Promise<void>;
}

/** Collects events and hands each to the first waiter that wants it. */
export class EventBacklog {
  private readonly backlog: SdkEvent[] = [];
  private readonly seen: SdkEvent[] = [];
  private waiters: { match: (event: SdkEvent) => boolean; resolve: (event: SdkEvent) => void }[] = [];

  push(event: SdkEvent): void {
    this.seen.push(event);
    const waiter = this.waiters.find((candidate) => candidate.match(event));
    if (waiter === undefined) this.backlog.push(event);
    else {
      this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
      waiter.resolve(event);
    }
  }

  next(match: (event: SdkEvent) => boolean, what: string, timeoutMs = 15_000): Promise<SdkEvent> {
    const index = this.backlog.findIndex(match);
    if (index >= 0) return Promise.resolve(this.backlog.splice(index, 1)[0] as SdkEvent);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((candidate) => candidate.match !== match);
        reject(new Error(`no ${what} within ${timeoutMs} ms; seen: ${JSON.stringify(this.seen.slice(-10))}`));
      }, timeoutMs);
      this.waiters.push({
        match,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      });
    });
  }

  all(): SdkEvent[] {
    return [...this.seen];
  }
}

/** The SDK in a Node process of its own (node-user.ts), over stdin/stdout. */
export class NodeSdkUser implements SdkUser {
  private readonly events_ = new EventBacklog();
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private counter = 0;
  private readonly ready: Promise<void>;
  private readonly stderr: string[] = [];

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    let markReady: () => void = () => undefined;
    this.ready = new Promise((resolve) => (markReady = resolve));
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr.push(chunk.toString());
      if (process.env.PARLEY_SDK_DEBUG) console.log('[sdk-err]', chunk.toString());
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      let parsed: {
        ready?: boolean;
        event?: SdkEvent;
        id?: number;
        ok?: boolean;
        result?: unknown;
        error?: string;
      };
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        if (process.env.PARLEY_SDK_DEBUG) console.log('[sdk]', line);
        return; // the SDK logs to stdout now and then
      }
      if (parsed.ready === true) markReady();
      else if (parsed.event !== undefined) this.events_.push(parsed.event);
      else if (parsed.id !== undefined) {
        const call = this.pending.get(parsed.id);
        this.pending.delete(parsed.id);
        if (parsed.ok === true) call?.resolve(parsed.result);
        else call?.reject(new Error(parsed.error ?? 'failed'));
      }
    });
  }

  static async start(config: {
    caFile: string;
    storageFile: string;
    httpsPort?: number;
  }): Promise<NodeSdkUser> {
    const child = spawn(process.execPath, [...(await sdkNodeUserCommand()), JSON.stringify(config)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
    });
    const user = new NodeSdkUser(child);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) =>
        reject(new Error(`SDK process exited (${code}): ${user.stderr.join('')}`)),
      ),
    );
    await Promise.race([user.ready, exited]);
    return user;
  }

  call<T = unknown>(op: string, ...args: unknown[]): Promise<T> {
    const id = (this.counter += 1);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.stdin.write(`${JSON.stringify({ id, op, args })}\n`);
    });
  }

  next(match: (event: SdkEvent) => boolean, what: string): Promise<SdkEvent> {
    return this.events_.next(match, what);
  }

  events(): SdkEvent[] {
    return this.events_.all();
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }
}
