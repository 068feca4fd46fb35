import type { UserEntity } from '../../shared/message.js';
import type { PendingDecision } from '../repositories/messages.js';

/** A reaction as the notifications engine decides it: the emoji and who left it. */
export interface Reaction {
  reaction: string;
  by: UserEntity;
}

/**
 * What a change's decision-queue row says of it; the row names its message by `message_id`: the
 * sent message or group action message (`message`), the action message recording an edit or a
 * deletion (`edited`, `deleted`), the message reacted to (`reaction`).
 */
export type QueuedChange =
  { kind: 'message' | 'edited' | 'deleted' } | { kind: 'reaction'; reaction: Reaction };

/** Makes the decision-queue row of a change about to be stored. */
export type RowOf = (change: QueuedChange) => PendingDecision;

/** Who decides the notifications of chat changes: the notifications engine, while it runs. */
export interface ChangeDecisions {
  /** Whether the app's changes are to be decided (it has a channel enabled). */
  wanted(appId: string): Promise<boolean>;
  rowOf: RowOf;
}

/**
 * The one way every change that feeds the notifications engine (a send, an edit, a deletion, a
 * reaction, a group member change) queues its decision: its row is stored in the change's own
 * transaction, so a process killed right after the commit leaves the event queued for another
 * process instead of losing it, and a row that cannot be stored fails the change.
 */
export class NotifiedChanges {
  #decisions: ChangeDecisions | undefined;

  /** Set by the notifications engine when it starts, cleared when it stops. */
  decideWith(decisions: ChangeDecisions | undefined): void {
    this.#decisions = decisions;
  }

  /**
   * How to make the rows of the app's changes, or undefined when nobody decides them (no engine,
   * or no channel enabled: such an app writes nothing). Asked before the change's transaction
   * opens: SQLite has one connection, which the open transaction would keep from the settings.
   */
  async rowsFor(appId: string): Promise<RowOf | undefined> {
    const decisions = this.#decisions;
    if (decisions === undefined || !(await decisions.wanted(appId))) return undefined;
    return decisions.rowOf;
  }
}
