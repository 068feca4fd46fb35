/**
 * The page the UI Kit contract test drives: CometChat's official React UI Kit 7.2.1, unmodified,
 * showing one of its standard screens at a time. The test picks the screen with `uikit.show` and
 * reaches the SDK the UI Kit uses as `window.CometChat`, for what the UI Kit offers no UI for.
 */
import { CometChat } from '@cometchat/chat-sdk-javascript';
import {
  CometChatConversations,
  CometChatGroupMembers,
  CometChatGroups,
  CometChatMessageComposer,
  CometChatMessageHeader,
  CometChatMessageList,
  CometChatProvider,
  CometChatSearch,
  CometChatThreadHeader,
  CometChatUIKit,
  CometChatUsers,
  UIKitSettingsBuilder,
} from '@cometchat/chat-uikit-react';
import '@cometchat/chat-uikit-react/styles';
import { useState, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';

/** The screens the test asks for; a conversation is with a user (`uid`) or a group (`guid`). */
export type Screen =
  | { name: 'conversations'; tags?: string[] }
  | { name: 'users' }
  | { name: 'groups' }
  | { name: 'members'; guid: string }
  | { name: 'conversation'; uid?: string; guid?: string }
  | { name: 'search' };

type Peer = { user: CometChat.User } | { group: CometChat.Group };

/** No sounds: the kit fetches them from CometChat's CDN, and this machine reaches no CDN. */
const QUIET = { disableSoundForMessages: true, disableSoundForCalls: true };

let root: Root | undefined;
let shown = 0;

async function start(appId: string, host: string, uid: string, authKey: string): Promise<void> {
  const settings = new UIKitSettingsBuilder()
    .setAppId(appId)
    .setRegion('us')
    .setAuthKey(authKey)
    .subscribePresenceForAllUsers()
    .setAutoEstablishSocketConnection(true)
    .setCallingEnabled(false)
    .setClientHost(host)
    .setAdminHost(host)
    .build();
  await CometChatUIKit.init(settings);
  await CometChatUIKit.login(uid);
  root = createRoot(document.getElementById('root') as HTMLElement);
}

/** A conversation with its header, messages and composer; a thread opens beside it. */
function Conversation({ peer }: { peer: Peer }): ReactElement {
  const [thread, setThread] = useState<CometChat.BaseMessage>();
  return (
    <div className="contract-conversation">
      <section className="contract-main">
        <CometChatMessageHeader {...peer} hideVoiceCallButton hideVideoCallButton hideBackButton />
        <CometChatMessageList {...peer} showMarkAsUnreadOption onThreadRepliesClick={setThread} />
        <CometChatMessageComposer {...peer} hideVoiceRecordingButton />
      </section>
      {thread ? (
        <section className="contract-thread" key={thread.getId()}>
          <CometChatThreadHeader parentMessage={thread} onClose={() => setThread(undefined)} />
          <CometChatMessageList {...peer} parentMessageId={thread.getId()} />
          <CometChatMessageComposer {...peer} parentMessageId={thread.getId()} hideVoiceRecordingButton />
        </section>
      ) : null}
    </div>
  );
}

async function viewOf(screen: Screen): Promise<ReactElement> {
  switch (screen.name) {
    case 'conversations': {
      const builder = new CometChat.ConversationsRequestBuilder().setLimit(30);
      if (screen.tags) builder.setTags(screen.tags).withTags(true);
      return <CometChatConversations conversationsRequestBuilder={builder} disableSoundForMessages />;
    }
    case 'users':
      return <CometChatUsers />;
    case 'groups':
      return <CometChatGroups />;
    case 'members':
      return <CometChatGroupMembers group={await CometChat.getGroup(screen.guid)} />;
    case 'conversation': {
      const peer: Peer =
        screen.uid !== undefined
          ? { user: await CometChat.getUser(screen.uid) }
          : { group: await CometChat.getGroup(screen.guid ?? '') };
      return <Conversation peer={peer} />;
    }
    case 'search':
      return <CometChatSearch />;
  }
}

/** Shows one screen, fresh: whatever was shown before unmounts first. */
async function show(screen: Screen): Promise<void> {
  if (root === undefined) throw new Error('start first');
  const view = await viewOf(screen);
  shown += 1;
  root.render(
    <CometChatProvider config={QUIET} key={shown}>
      <div className={`contract-screen contract-${screen.name}`}>{view}</div>
    </CometChatProvider>,
  );
}

Object.assign(window, { CometChat, uikit: { start, show } });
