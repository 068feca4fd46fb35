import type { UserEntity } from '../../shared/message.js';
import type { FanOut } from '../realtime/fan-out.js';
import type { StoredMessage } from '../repositories/messages.js';
import type { ReadStateRepository, ReceiptKind } from '../repositories/read-state.js';

/**
 * A reader's receipt, whichever way it comes (the socket's `receipts` frame, or the REST API's
 * conversation `read`/`delivered` routes on behalf of a user): stored as the reader's pointer, up to
 * `message` and everything before it, then passed in realtime to the sender of `message`. A receipt
 * of one's own message is stored and told to nobody.
 */
export class Receipts {
  constructor(
    private readonly readState: ReadStateRepository,
    private readonly fanOut: FanOut,
  ) {}

  async give(
    appId: string,
    reader: UserEntity,
    message: StoredMessage,
    kind: ReceiptKind,
    deviceId: string | undefined,
  ): Promise<void> {
    const timestamp = await this.readState.mark(
      appId,
      message.conversationId,
      reader.uid,
      kind,
      Number(message.id),
    );
    if (message.sender === reader.uid) return;
    this.fanOut.publish(appId, [message.sender], {
      appId,
      receiver: message.receiverType === 'user' ? message.sender : message.receiver,
      receiverType: message.receiverType,
      ...(deviceId === undefined ? {} : { deviceId }),
      type: 'receipts',
      sender: reader.uid,
      messageSender: message.sender,
      body: { action: kind, messageId: String(message.id), user: reader, timestamp },
    });
  }
}
