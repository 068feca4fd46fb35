import type { ChatTarget, Message, OutgoingMessage } from './types.js';

/** A message the user sent while the service was unreachable. */
export interface QueuedMessage {
  /** The client's id for the message; the service echoes it, so the sent message can replace the queued one. */
  muid: string;
  target: ChatTarget;
  message: OutgoingMessage;
  queuedAt: number;
}

/**
 * Messages waiting for the service, sent in the order they were written. A send that fails for a
 * reason other than the network (the service refused the message) is dropped and reported, so one
 * bad message never blocks the rest.
 */
export class Outbox {
  #items: QueuedMessage[] = [];
  #flushing: Promise<void> | undefined;

  get items(): readonly QueuedMessage[] {
    return this.#items;
  }

  get size(): number {
    return this.#items.length;
  }

  add(item: QueuedMessage): void {
    this.#items.push(item);
  }

  clear(): void {
    this.#items = [];
  }

  /**
   * Sends queued messages one by one until the queue is empty or the network fails again.
   * Concurrent calls share one run.
   */
  flush(
    send: (item: QueuedMessage) => Promise<Message>,
    isRetryable: (error: unknown) => boolean,
    report: (item: QueuedMessage, outcome: { message: Message } | { error: unknown }) => void,
  ): Promise<void> {
    if (this.#flushing) return this.#flushing;
    const run = this.#sendAll(send, isRetryable, report).finally(() => {
      this.#flushing = undefined;
    });
    this.#flushing = run;
    return run;
  }

  async #sendAll(
    send: (item: QueuedMessage) => Promise<Message>,
    isRetryable: (error: unknown) => boolean,
    report: (item: QueuedMessage, outcome: { message: Message } | { error: unknown }) => void,
  ): Promise<void> {
    while (this.#items.length > 0) {
      const item = this.#items[0]!;
      try {
        const message = await send(item);
        this.#remove(item);
        report(item, { message });
      } catch (error) {
        if (isRetryable(error)) return;
        this.#remove(item);
        report(item, { error });
      }
    }
  }

  #remove(item: QueuedMessage): void {
    this.#items = this.#items.filter((queued) => queued !== item);
  }
}
