import type { Message } from '../../shared/message.js';
import type { ChatEventMap, ChatEvents, EventOrigin } from '../events.js';
import type { Logger } from '../log.js';
import { toUserEntity } from '../repositories/users.js';
import type { ChatCore } from '../services/registry.js';
import type { FanOut } from './fan-out.js';

/** A user an action message is about (kicked, banned, left) still hears about it. */
function actionSubject(message: Message): string | undefined {
  const on = message.data.entities.on;
  return on?.entityType === 'user' ? on.entity.uid : undefined;
}

/**
 * Turns what the chat store committed into realtime frames: every stored message to every socket of
 * its sender and recipients (all members for groups), a `reaction` frame for each reaction added or
 * removed to the same people, pins and saves (`message_pinned`, `conversation_pinned`, …) to whom they
 * concern, `interaction_completed` once a form's goal is met, and moderation verdicts
 * (`on_moderation_status_changed`) to the message's sender. Frames carry
 * the device of the event's origin, so the session that caused them drops its echo. Frames of one conversation leave in the order the messages were stored. Sessions that
 * ended lose their sockets.
 */
export function publishChatEvents(
  events: ChatEvents,
  fanOut: FanOut,
  core: ChatCore,
  logger: Logger,
): () => void {
  const queues = new Map<string, Promise<void>>();
  const failed = (error: unknown): void =>
    logger.warn('realtime_publish_failed', { error: error instanceof Error ? error.name : 'unknown' });
  /**
   * Runs `work` after the conversation's earlier frames, so members never see messages reordered:
   * at once when none are pending, else queued behind them. Work that needs no read (a one-to-one
   * message's frame) then finishes at once and queues nothing.
   */
  const inOrder = (key: string, work: () => Promise<void> | void): void => {
    const pending = queues.get(key);
    let next: Promise<void>;
    if (pending === undefined) {
      let started: Promise<void> | void;
      try {
        started = work();
      } catch (error) {
        failed(error);
        return;
      }
      if (started === undefined) return;
      next = started.catch(failed);
    } else next = pending.then(work).catch(failed);
    queues.set(key, next);
    void next.then(() => {
      if (queues.get(key) === next) queues.delete(key);
    });
  };

  const onMessage = (appId: string, message: Message, { deviceId }: EventOrigin): void => {
    const publish = (recipients: ReadonlyArray<string>): void => {
      const subject = actionSubject(message);
      const audience = subject === undefined ? recipients : [...recipients, subject];
      fanOut.publish(appId, audience, {
        appId,
        receiver: message.receiver,
        receiverType: message.receiverType,
        ...(deviceId === undefined ? {} : { deviceId }),
        type: 'message',
        sender: message.sender,
        body: message,
      });
    };
    inOrder(
      `${appId} ${message.conversationId}`,
      message.receiverType === 'user'
        ? () => publish([message.sender, message.receiver])
        : async () => publish(await core.groups.memberUids(appId, message.receiver)),
    );
  };

  const onInteractionEvent = (...[appId, event, { deviceId }]: ChatEventMap['interaction']): void => {
    if (!event.goalCompleted) return;
    void (async () => {
      const row = await core.messages.find(appId, Number(event.messageId));
      const user = await core.users.find(appId, event.uid);
      if (row === undefined || user === undefined) return;
      fanOut.publish(appId, [row.sender, event.uid], {
        appId,
        receiver: row.receiver,
        receiverType: row.receiverType,
        ...(deviceId === undefined ? {} : { deviceId }),
        type: 'interaction_completed',
        sender: event.uid,
        body: { messageId: event.messageId, user: toUserEntity(user), interactions: event.interactions },
      });
    })().catch((error: unknown) =>
      logger.warn('realtime_publish_failed', { error: error instanceof Error ? error.name : 'unknown' }),
    );
  };

  /** A reaction reaches everyone in the message's conversation, after the conversation's earlier frames. */
  const onReaction = (...[appId, event, { deviceId }]: ChatEventMap['reaction']): void => {
    inOrder(`${appId} ${event.body.conversationId}`, async () => {
      const recipients =
        event.receiverType === 'user'
          ? [event.messageSender, event.receiver]
          : await core.groups.memberUids(appId, event.receiver);
      fanOut.publish(appId, recipients, {
        appId,
        receiver: event.receiver,
        receiverType: event.receiverType,
        ...(deviceId === undefined ? {} : { deviceId }),
        type: 'reaction',
        sender: event.body.uid,
        body: event.body,
      });
    });
  };

  /** A pin or save reaches its audience after the conversation's earlier frames. */
  const onPinSave = (...[appId, event, { deviceId }]: ChatEventMap['pinSave']): void => {
    const { to } = event;
    inOrder(`${appId} ${event.conversationId}`, async () => {
      const recipients = 'uids' in to ? to.uids : await core.groups.memberUids(appId, to.guid);
      fanOut.publish(appId, recipients, {
        appId,
        receiver: event.receiver,
        receiverType: event.receiverType,
        ...(deviceId === undefined ? {} : { deviceId }),
        type: event.type,
        sender: event.sender,
        body: { action: event.action, ...event.body },
      });
    });
  };

  /** A moderation verdict reaches the sender's sessions, the one that sent the message too. */
  const onModerated = (...[appId, message, { deviceId }]: ChatEventMap['messageModerated']): void => {
    fanOut.publish(appId, [message.sender], {
      appId,
      receiver: message.receiver,
      receiverType: message.receiverType,
      ...(deviceId === undefined ? {} : { deviceId }),
      type: 'on_moderation_status_changed',
      sender: message.sender,
      body: message,
    });
  };

  const onSessionsEnded = (...[appId, ended]: ChatEventMap['sessionsEnded']): void =>
    fanOut.closeSessions(appId, ended);

  events.on('message', onMessage);
  events.on('interaction', onInteractionEvent);
  events.on('reaction', onReaction);
  events.on('pinSave', onPinSave);
  events.on('messageModerated', onModerated);
  events.on('sessionsEnded', onSessionsEnded);
  return () => {
    events.off('message', onMessage);
    events.off('interaction', onInteractionEvent);
    events.off('reaction', onReaction);
    events.off('pinSave', onPinSave);
    events.off('messageModerated', onModerated);
    events.off('sessionsEnded', onSessionsEnded);
  };
}
