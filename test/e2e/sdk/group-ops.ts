/**
 * The SDK ops for group administration (every SDK call of issue #19's table) and the group
 * listener's events, each answering plain JSON of what the SDK's own objects say.
 */
import type { CometChat as CometChatSdk } from '@cometchat/chat-sdk-javascript';
import type { SdkEvent } from './sdk-ops.js';

type Sdk = typeof CometChatSdk;

interface UserLike {
  getUid(): string;
}
interface GroupLike {
  getGuid(): string;
}
interface ActionLike {
  getActionBy(): UserLike;
}

/** What the SDK's group listener hears: one `group` event per member action, naming who did what to whom. */
export function listenToGroups(CometChat: Sdk, emit: (event: SdkEvent) => void): void {
  const heard =
    (action: string) => (message: ActionLike, on: UserLike, by: UserLike | GroupLike, group?: GroupLike) =>
      emit({
        kind: 'group',
        action,
        on: on.getUid(),
        by: message.getActionBy().getUid(),
        guid: (group ?? (by as GroupLike)).getGuid(),
      });
  CometChat.removeGroupListener('contract');
  CometChat.addGroupListener(
    'contract',
    new CometChat.GroupListener({
      onGroupMemberKicked: heard('kicked'),
      onGroupMemberBanned: heard('banned'),
      onGroupMemberUnbanned: heard('unbanned'),
      onMemberAddedToGroup: heard('added'),
      onGroupMemberJoined: heard('joined'),
      onGroupMemberLeft: heard('left'),
      onGroupMemberScopeChanged: (
        message: ActionLike,
        on: UserLike,
        newScope: string,
        oldScope: string,
        group: GroupLike,
      ) =>
        emit({
          kind: 'group',
          action: 'scopeChanged',
          on: on.getUid(),
          by: message.getActionBy().getUid(),
          guid: group.getGuid(),
          newScope,
          oldScope,
        }),
    }),
  );
}

/** Group administration as a chat app calls it: every SDK call of issue #19's table, one op each. */
export function groupOps(CometChat: Sdk) {
  return {
    joinGroup: async (guid: string) => {
      await CometChat.joinGroup(guid, CometChat.GROUP_TYPE.PUBLIC as never);
      return true;
    },
    leaveGroup: async (guid: string) => CometChat.leaveGroup(guid),
    getGroup: async (guid: string) => {
      const group = await CometChat.getGroup(guid);
      return {
        guid: group.getGuid(),
        name: group.getName(),
        owner: group.getOwner(),
        scope: group.getScope(),
      };
    },
    groupMembers: async (guid: string) => {
      const request = new CometChat.GroupMembersRequestBuilder(guid).setLimit(30).build();
      const members = await request.fetchNext();
      return Object.fromEntries(members.map((member) => [member.getUid(), member.getScope()]));
    },
    updateGroupMemberScope: async (guid: string, uid: string, scope: string) =>
      CometChat.updateGroupMemberScope(guid, uid, scope as never),
    kickGroupMember: async (guid: string, uid: string) => CometChat.kickGroupMember(guid, uid),
    banGroupMember: async (guid: string, uid: string) => CometChat.banGroupMember(guid, uid),
    unbanGroupMember: async (guid: string, uid: string) => CometChat.unbanGroupMember(guid, uid),
    bannedMembers: async (guid: string) => {
      const request = new CometChat.BannedMembersRequestBuilder(guid).setLimit(30).build();
      return (await request.fetchNext()).map((member) => member.getUid());
    },
    addMembersToGroup: async (guid: string, members: { uid: string; scope: string }[], banned: string[]) =>
      CometChat.addMembersToGroup(
        guid,
        members.map((member) => new CometChat.GroupMember(member.uid, member.scope)),
        banned,
      ),
    /** Renames the group as the UI Kit does: the Group object it read, with a new name. */
    renameGroup: async (guid: string, name: string) => {
      const group = await CometChat.getGroup(guid);
      group.setName(name);
      const updated = await CometChat.updateGroup(group);
      return { name: updated.getName(), owner: updated.getOwner() };
    },
    transferGroupOwnership: async (guid: string, uid: string) => CometChat.transferGroupOwnership(guid, uid),
    deleteGroup: async (guid: string) => CometChat.deleteGroup(guid),
  };
}
