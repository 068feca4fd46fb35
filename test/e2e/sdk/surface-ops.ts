/**
 * The SDK ops for flags, per-user conversation deletion, the friends-only user list and online
 * counts, each answering plain JSON of what the SDK's own objects say.
 */
import type { CometChat as CometChatSdk } from '@cometchat/chat-sdk-javascript';

type Sdk = typeof CometChatSdk;

export function surfaceOps(CometChat: Sdk) {
  return {
    flagReasons: async () =>
      ((await CometChat.getFlagReasons()) as Array<{ id: string; name: string }>).map((reason) => ({
        id: reason.id,
        name: reason.name,
      })),
    flagMessage: async (messageId: string, reasonId: string, remark: string) =>
      CometChat.flagMessage(messageId, { reasonId, remark }),
    deleteConversation: async (id: string, type: string) => CometChat.deleteConversation(id, type),
    friendsOnly: async () => {
      const request = new CometChat.UsersRequestBuilder().setLimit(30).friendsOnly(true).build();
      return (await request.fetchNext()).map((user) => user.getUid());
    },
    onlineUserCount: async () => CometChat.getOnlineUserCount(),
    onlineGroupMemberCount: async (guids: string[]) => CometChat.getOnlineGroupMemberCount(guids),
  };
}
