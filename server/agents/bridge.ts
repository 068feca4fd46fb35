import { AgentAnswer, type ChatTurn } from '../../shared/agent.js';
import type { Message, MessageRequest } from '../../shared/message.js';
import { MAX_MESSAGE_BYTES } from '../../shared/message.js';
import type { ChatEvents } from '../events.js';
import type { Logger } from '../log.js';
import type { StoredMessage } from '../repositories/messages.js';
import type { ChatCore } from '../services/registry.js';
import { byteLength } from '../validation.js';
import { processConversationLocks, type ConversationLocks } from './conversation-locks.js';
import { mentions, withPlainMention } from './mentions.js';
import type { Agent, AgentRegistry } from './registry.js';
import type { AgentTakeovers } from './takeovers.js';

export interface AgentBridgeOptions {
  /** How long one call to the deployment URL may take. */
  timeoutMs: number;
  /** Further attempts after a failed call (network error, 429 or 5xx), with exponential backoff. */
  retries: number;
  backoffMs: number;
  /** Turns of the conversation sent with the question. */
  turns: number;
  /** Questions waiting per conversation beyond the one being answered; more are dropped. */
  maxQueued: number;
  /** Across processes (Redis): one generation per conversation at a time. Default: this process alone. */
  conversationLocks?: ConversationLocks;
}

export const DEFAULT_BRIDGE_OPTIONS: AgentBridgeOptions = {
  timeoutMs: 30_000,
  retries: 2,
  backoffMs: 500,
  turns: 20,
  maxQueued: 5,
};

/** What a chat sees when the agent could not answer; the cause goes to the log only. */
export const AGENT_FAILURE_NOTICE = 'Sorry, I could not answer just now. Please try again in a moment.';

class GenerateError extends Error {
  constructor(
    readonly reason: string,
    readonly retryable: boolean,
  ) {
    super(reason);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Connects chats to registered AI agents the way CometChat's agent feature does: a text that
 * mentions an agent in a group it belongs to, or any text in a one-on-one chat with it, is sent to
 * the agent's deployment URL with the recent turns and its namespace; the answer comes back as a
 * message from the agent user with its citations in `data.metadata.sources`. One question per
 * conversation is answered at a time, in order. In a conversation an operator took over, the agent
 * stays silent until it is given back.
 */
export class AgentBridge {
  private readonly queues = new Map<string, { running: Promise<void>; waiting: number }>();
  /** Messages still being looked at (which agents do they address?). */
  private readonly considering = new Set<Promise<void>>();
  private readonly stop = new AbortController();
  private readonly options: AgentBridgeOptions;
  private readonly onMessage = (appId: string, message: Message) => this.consider(appId, message);

  constructor(
    private readonly core: ChatCore,
    private readonly registry: AgentRegistry,
    private readonly takeovers: AgentTakeovers,
    private readonly logger: Logger,
    options: Partial<AgentBridgeOptions> = {},
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.options = { ...DEFAULT_BRIDGE_OPTIONS, ...options };
  }

  attach(events: ChatEvents): void {
    events.on('message', this.onMessage);
  }

  /** Stops taking questions and waits for the ones under way to give up. */
  async close(events: ChatEvents): Promise<void> {
    events.off('message', this.onMessage);
    this.stop.abort();
    await Promise.all([...this.queues.values()].map((queue) => queue.running));
  }

  /** Resolves once every question asked so far has been answered or given up (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.queues.size > 0 || this.considering.size > 0) {
      await Promise.all([...this.considering, ...[...this.queues.values()].map((queue) => queue.running)]);
    }
  }

  private consider(appId: string, message: Message): void {
    if (message.category !== 'message' || message.type !== 'text' || message.deletedAt !== undefined) return;
    const text = message.data.text;
    if (typeof text !== 'string') return;
    // An app known to have no enabled agent (nearly every message) costs no promise here.
    if (this.registry.listed(appId)?.some((agent) => agent.enabled) === false) return;
    const looking: Promise<void> = this.addressedAgents(appId, message, text)
      .then((agents) => {
        for (const agent of agents) this.enqueue(appId, agent, message);
      })
      .catch((error: unknown) =>
        this.logger.error('agent_bridge_failed', {
          appId,
          error: error instanceof Error ? error.name : 'unknown',
        }),
      )
      .finally(() => this.considering.delete(looking));
    this.considering.add(looking);
  }

  /**
   * The enabled agents a message is for: the one-on-one partner, or those mentioned in a group they
   * belong to; none that an operator took the conversation over from.
   */
  private async addressedAgents(appId: string, message: Message, text: string): Promise<Agent[]> {
    const agents = (await this.registry.list(appId)).filter((agent) => agent.enabled);
    if (agents.length === 0 || agents.some((agent) => agent.uid === message.sender)) return [];
    const candidates =
      message.receiverType === 'user'
        ? agents.filter((agent) => agent.uid === message.receiver)
        : agents.filter((agent) => mentions(agent, text));
    const checks = await Promise.all(
      candidates.map(async (agent) => {
        const inGroup =
          message.receiverType === 'user' ||
          (await this.core.groups.member(appId, message.receiver, agent.uid)) !== undefined;
        if (!inGroup) return false;
        const takeover = await this.takeovers.get(appId, agent.uid, message.conversationId);
        if (takeover.takenOver) {
          this.logger.info('agent_taken_over', { appId, agent: agent.uid });
          return false;
        }
        return true;
      }),
    );
    return candidates.filter((_, index) => checks[index]);
  }

  private enqueue(appId: string, agent: Agent, message: Message): void {
    const key = `${appId} ${message.conversationId} ${agent.uid}`;
    const queue = this.queues.get(key) ?? { running: Promise.resolve(), waiting: 0 };
    if (queue.waiting > this.options.maxQueued) {
      this.logger.warn('agent_question_dropped', { appId, agent: agent.uid, reason: 'queue full' });
      return;
    }
    queue.waiting += 1;
    const running = queue.running.then(async () => {
      queue.waiting -= 1;
      if (!this.stop.signal.aborted) await this.answerAlone(key, appId, agent, message);
    });
    queue.running = running;
    this.queues.set(key, queue);
    void running.then(() => {
      if (this.queues.get(key)?.running === running) this.queues.delete(key);
    });
  }

  /** Answers once no other process is answering in the conversation; never rejects. */
  private async answerAlone(key: string, appId: string, agent: Agent, question: Message): Promise<void> {
    const locks = this.options.conversationLocks ?? processConversationLocks;
    try {
      await locks.hold(
        key,
        () => this.answer(appId, agent, question),
        () => this.logger.info('agent_conversation_busy', { appId, agent: agent.uid }),
        this.stop.signal,
      );
    } catch (error) {
      if (this.stop.signal.aborted) return;
      this.logger.warn('agent_question_dropped', {
        appId,
        agent: agent.uid,
        reason: 'conversation busy',
        error: error instanceof Error ? error.name : 'unknown',
      });
    }
  }

  private async answer(appId: string, agent: Agent, question: Message): Promise<void> {
    const started = Date.now();
    const oneOnOne = question.receiverType === 'user';
    const replyTo = oneOnOne ? question.sender : question.receiver;
    try {
      const turns = await this.recentTurns(appId, agent, question);
      const answer = await this.generate(agent, {
        messages: turns,
        toolParams: { namespace: agent.namespace },
        ...(oneOnOne ? { requireMention: false } : {}),
      });
      if (!answer.addressed || answer.text.trim() === '') {
        this.logger.info('agent_no_answer', { appId, agent: agent.uid, ms: Date.now() - started });
        return;
      }
      await this.post(appId, agent, replyTo, question.receiverType, answer.text, fitSources(answer));
      this.logger.info('agent_answered', {
        appId,
        agent: agent.uid,
        sources: answer.sources.length,
        ms: Date.now() - started,
      });
    } catch (error) {
      if (this.stop.signal.aborted) return;
      this.logger.error('agent_generate_failed', {
        appId,
        agent: agent.uid,
        reason:
          error instanceof GenerateError ? error.reason : error instanceof Error ? error.name : 'unknown',
      });
      await this.post(appId, agent, replyTo, question.receiverType, AGENT_FAILURE_NOTICE, {
        agentError: true,
      }).catch(() => undefined);
    }
  }

  /** The conversation's latest text turns up to the question, oldest first. */
  private async recentTurns(appId: string, agent: Agent, question: Message): Promise<ChatTurn[]> {
    const rows: StoredMessage[] = await this.core.messages.list(
      appId,
      {
        conversationIds: [question.conversationId],
        categories: ['message'],
        types: ['text'],
        hideDeleted: true,
      },
      { affix: 'prepend', id: Number(question.id) + 1 },
      this.options.turns,
    );
    return rows.flatMap((row): ChatTurn[] => {
      const { text } = row.data;
      if (typeof text !== 'string') return [];
      return row.sender === agent.uid
        ? [{ role: 'assistant', content: text }]
        : [{ role: 'user', content: withPlainMention(agent, text) }];
    });
  }

  private async generate(agent: Agent, body: unknown): Promise<AgentAnswer> {
    let attempt = 0;
    for (;;) {
      try {
        return await this.callOnce(agent, body);
      } catch (error) {
        const retryable = !(error instanceof GenerateError) || error.retryable;
        if (!retryable || attempt >= this.options.retries || this.stop.signal.aborted) throw error;
        await sleep(this.options.backoffMs * 2 ** attempt * (0.5 + Math.random() / 2), this.stop.signal);
        attempt += 1;
      }
    }
  }

  private async callOnce(agent: Agent, body: unknown): Promise<AgentAnswer> {
    let response: Response;
    try {
      response = await this.fetchImpl(agent.deploymentUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.any([this.stop.signal, AbortSignal.timeout(this.options.timeoutMs)]),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new GenerateError(timedOut ? 'timeout' : 'unreachable', true);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new GenerateError(`http ${response.status}`, response.status === 429 || response.status >= 500);
    }
    const parsed = AgentAnswer.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new GenerateError('malformed answer', false);
    return parsed.data;
  }

  private async post(
    appId: string,
    agent: Agent,
    receiver: string,
    receiverType: 'user' | 'group',
    text: string,
    metadata: Record<string, unknown>,
  ): Promise<void> {
    const app = await this.core.apps.find(appId);
    if (app === undefined) return;
    const request: MessageRequest = {
      receiver,
      receiverType,
      category: 'message',
      type: 'text',
      data: {
        text,
        // The namespace lets a console that holds it (the desktop app) open the cited pages.
        metadata: {
          ...metadata,
          agent: { id: agent.agentId, provider: agent.provider, namespace: agent.namespace },
        },
      },
    };
    // The agent is the origin, from no device: every session of the asker receives the answer.
    await this.core.services.messages.send(app, agent.uid, request, { uid: agent.uid });
  }
}

/** A citation as chat users see it: where to look in a document, never where it lies on the server. */
interface ChatSource {
  n?: number;
  /** The agent's opaque id of the document (a hash), so a console holding the namespace can open it. */
  documentId?: string;
  title: string;
  /** The document's name within its namespace, e.g. `budget.md` or `guides/setup.md`. */
  name?: string;
  page?: number;
  heading?: string;
  /** The web address of a URL source (http and https only). */
  url?: string;
  snippet?: string;
}

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * A namespace-relative name: the agent's `name` when it is relative, else the last part of
 * whatever path it sent, so no absolute path, home folder or drive letter reaches a chat.
 */
function relativeName(source: Record<string, unknown>): string | undefined {
  const given = nonEmpty(source.name) ?? nonEmpty(source.path);
  if (given === undefined) return undefined;
  const parts = given.split(/[\\/]+/);
  const relative = !/^([\\/~]|[a-z]:)/i.test(given) && !parts.includes('..');
  return relative ? parts.join('/') : parts.filter(Boolean).at(-1);
}

/** The fields of an agent's citation a chat may carry, copied one by one: nothing else goes through. */
function chatSource(source: Record<string, unknown>): ChatSource {
  const name = relativeName(source);
  const url = nonEmpty(source.url);
  const title = nonEmpty(source.title) ?? name ?? 'untitled';
  return {
    ...(typeof source.n === 'number' ? { n: source.n } : {}),
    ...(typeof source.documentId === 'string' && /^[\w-]{1,128}$/.test(source.documentId)
      ? { documentId: source.documentId }
      : {}),
    title,
    ...(name !== undefined ? { name } : {}),
    ...(typeof source.page === 'number' ? { page: source.page } : {}),
    ...(nonEmpty(source.heading) !== undefined ? { heading: source.heading as string } : {}),
    ...(url !== undefined && /^https?:\/\//i.test(url) ? { url } : {}),
    ...(typeof source.snippet === 'string' ? { snippet: source.snippet } : {}),
  };
}

/** The citations as metadata, with snippets shortened until the message fits the size limit. */
function fitSources(answer: AgentAnswer): Record<string, unknown> {
  const all = answer.sources.map(chatSource);
  let sources = all;
  for (const limit of [600, 200, 0]) {
    if (byteLength({ text: answer.text, metadata: { sources } }) < MAX_MESSAGE_BYTES - 1024) break;
    sources = all.map((source) =>
      source.snippet === undefined ? source : { ...source, snippet: source.snippet.slice(0, limit) },
    );
  }
  return { sources };
}
