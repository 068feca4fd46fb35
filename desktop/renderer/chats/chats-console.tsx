import { CometChat } from '@cometchat/chat-sdk-javascript';
import {
  CometChatConversations,
  CometChatGroupMembers,
  CometChatGroups,
  CometChatMessageComposer,
  CometChatMessageHeader,
  CometChatMessageList,
  CometChatProvider,
  CometChatUIKit,
  CometChatUsers,
  UIKitSettingsBuilder,
} from '@cometchat/chat-uikit-react';
import { useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import type { ChatConnection } from '../../../shared/chat-connection.js';
import { messageOf, useWindow } from '../context.js';
import { targetOfCitation } from '../lib/source-target.js';
import { agentTextPlugin, type OpenCitation } from './agent-sources.js';
import { plainLoopbackHost, reachOverPlainHttp } from './loopback-transport.js';
import { takeover, type Takeover, type TakeoverSession } from './takeover.js';

type Tab = 'conversations' | 'users' | 'groups';

const QUIET = { disableSoundForMessages: true, disableSoundForCalls: true };
type Peer = { user: CometChat.User } | { group: CometChat.Group };

/** One sign-in per connection, however often the console mounts. */
let signingIn: { key: string; user: Promise<CometChat.User> } | undefined;

/**
 * Initialises the UI Kit for the connection and signs the operator in (again only when it changed).
 * `plainHost`: the chat host reached over http/ws on loopback (see loopback-transport.ts).
 */
function signIn(connection: ChatConnection, plainHost: string | undefined): Promise<CometChat.User> {
  const key = JSON.stringify(connection);
  if (signingIn?.key === key) return signingIn.user;
  const user = (async () => {
    // Before the SDK initialises: it reads its transports when it calls them.
    reachOverPlainHttp(plainHost);
    const settings = new UIKitSettingsBuilder()
      .setAppId(connection.appId)
      .setRegion(connection.region)
      .subscribePresenceForAllUsers()
      .setAutoEstablishSocketConnection(true)
      // Parley has no calls: the Calls SDK is never loaded, and call buttons are hidden below.
      .setCallingEnabled(false);
    if (connection.authKey) settings.setAuthKey(connection.authKey);
    // The SDK speaks https/wss to `<host>/v3` (Parley serves both on its port with --tls; a
    // loopback page reaches a loopback host over http/ws instead, on the same port).
    if (connection.host)
      settings.setClientHost(`${connection.host}/v3`).setAdminHost(`${connection.host}/v3`);
    await CometChatUIKit.init(settings.build());
    const current = CometChatUIKit.getLoggedInUser();
    if (current?.getUid() === connection.operatorUid) return current;
    if (current) await CometChatUIKit.logout();
    return connection.authToken
      ? CometChatUIKit.loginWithAuthToken(connection.authToken)
      : CometChatUIKit.login(connection.operatorUid);
  })();
  signingIn = { key, user };
  user.catch(() => {
    if (signingIn?.user === user) signingIn = undefined;
  });
  return user;
}

/** The agents in a group, from its members' role (the chat service gives agents the role `agent`). */
async function agentsOf(group: CometChat.Group): Promise<string[]> {
  const request = new CometChat.GroupMembersRequestBuilder(group.getGuid()).setLimit(100).build();
  const members = await request.fetchNext();
  return members.filter((member) => member.getRole() === 'agent').map((member) => member.getUid());
}

/**
 * The operator's console: conversations, users and groups on the left; the chosen conversation
 * with header (and "Take over" where an agent answers), messages and composer; a group's members.
 */
export default function ChatsConsole({
  connection,
  onDisconnect,
}: {
  connection: ChatConnection;
  onDisconnect: (() => void) | undefined;
}): ReactElement {
  const { bridge, namespaces, openSource, announce } = useWindow();
  const [operator, setOperator] = useState<CometChat.User>();
  const [failure, setFailure] = useState<SignInFailure>();
  const [attempt, setAttempt] = useState(0);
  const [tab, setTab] = useState<Tab>('conversations');
  const [peer, setPeer] = useState<Peer>();
  const [showMembers, setShowMembers] = useState(false);
  const plainHost = plainLoopbackHost(connection.host, window.location, bridge !== undefined);

  useEffect(() => {
    let current = true;
    setFailure(undefined);
    signIn(connection, plainHost).then(
      (user) => current && setOperator(user),
      (error: unknown) => current && setFailure(signInFailure(error)),
    );
    return () => {
      current = false;
    };
  }, [connection, plainHost, attempt]);

  const localNamespaces = useMemo(
    () => new Set((namespaces ?? []).filter((summary) => !summary.error).map((summary) => summary.name)),
    [namespaces],
  );
  const openCitation: OpenCitation = useCallback(
    (citation, namespace) => {
      if (namespace) openSource(targetOfCitation(namespace, { score: 0, ...citation }));
    },
    [openSource],
  );
  const plugins = useMemo(
    () => [agentTextPlugin(localNamespaces, openCitation)],
    [localNamespaces, openCitation],
  );

  if (failure) {
    return (
      <section className="page">
        <div className="banner error" role="alert">
          <strong>Chats could not connect.</strong> {failure.text}
        </div>
        {failure.unreachable && connection.host ? (
          <UnreachableHost
            host={connection.host}
            reach={bridge ? 'fingerprint' : plainHost === undefined ? 'certificate' : 'plain'}
          />
        ) : null}
        <div className="form-actions">
          <button type="button" className="button primary" onClick={() => setAttempt(attempt + 1)}>
            Try again
          </button>
          {onDisconnect ? (
            <button type="button" className="button" onClick={onDisconnect}>
              Change the connection
            </button>
          ) : null}
        </div>
      </section>
    );
  }
  if (!operator) return <p className="muted">Signing in to {connection.host ?? 'CometChat'}…</p>;

  const choose = (next: Peer) => {
    setPeer(next);
    setShowMembers(false);
  };
  const session: TakeoverSession | undefined = connection.host
    ? { host: connection.host, appId: connection.appId, authToken: operator.getAuthToken() }
    : undefined;

  return (
    // No sounds (here and on the list and conversations below): the kit fetches them from
    // CometChat's CDN, and the window loads nothing remote.
    <CometChatProvider plugins={plugins} config={QUIET}>
      <div className="chats">
        <aside className="chats-lists">
          <div className="chats-tabs" role="tablist" aria-label="Chats">
            {(['conversations', 'users', 'groups'] as const).map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                aria-selected={tab === name}
                className={tab === name ? 'active' : ''}
                onClick={() => setTab(name)}
              >
                {name[0]?.toUpperCase()}
                {name.slice(1)}
              </button>
            ))}
          </div>
          {tab === 'conversations' ? (
            <CometChatConversations
              disableSoundForMessages
              onItemClick={(conversation) => {
                const withWhom = conversation.getConversationWith();
                choose(
                  withWhom instanceof CometChat.Group
                    ? { group: withWhom }
                    : { user: withWhom as CometChat.User },
                );
              }}
            />
          ) : tab === 'users' ? (
            <CometChatUsers onItemClick={(user) => choose({ user })} />
          ) : (
            <CometChatGroups onItemClick={(group) => choose({ group })} />
          )}
          <p className="chats-operator muted">
            Signed in as {operator.getName() || operator.getUid()}
            {onDisconnect ? (
              <>
                {' · '}
                <button type="button" className="link-button" onClick={onDisconnect}>
                  Change
                </button>
              </>
            ) : null}
          </p>
        </aside>
        {peer ? (
          <section
            className="chats-conversation"
            key={'group' in peer ? `g:${peer.group.getGuid()}` : `u:${peer.user.getUid()}`}
          >
            <CometChatMessageHeader
              {...peer}
              hideVoiceCallButton
              hideVideoCallButton
              hideBackButton
              auxiliaryButtonView={
                'group' in peer ? (
                  <div className="chats-header-actions">
                    {session ? (
                      <TakeoverButton session={session} group={peer.group} announce={announce} />
                    ) : null}
                    <button
                      type="button"
                      className="button"
                      aria-pressed={showMembers}
                      onClick={() => setShowMembers((shown) => !shown)}
                    >
                      Members
                    </button>
                  </div>
                ) : undefined
              }
            />
            <CometChatMessageList {...peer} disableSoundForMessages />
            <CometChatMessageComposer {...peer} hideVoiceRecordingButton />
          </section>
        ) : (
          <section className="chats-conversation chats-empty">
            <p className="muted">Choose a conversation, a user or a group.</p>
          </section>
        )}
        {peer && 'group' in peer && showMembers ? (
          <aside className="chats-members" aria-label="Group members">
            <CometChatGroupMembers group={peer.group} />
          </aside>
        ) : null}
      </div>
    </CometChatProvider>
  );
}

/**
 * "Take over" / "Give back to agent" for a group with an agent in it: mutes the agent there while
 * the operator answers (the chat service's take-over API, as this operator).
 */
function TakeoverButton({
  session,
  group,
  announce,
}: {
  session: TakeoverSession;
  group: CometChat.Group;
  announce(message: string, tone?: 'info' | 'error'): void;
}): ReactElement | null {
  const [agentId, setAgentId] = useState<string>();
  const [state, setState] = useState<Takeover>();
  const [busy, setBusy] = useState(false);
  const conversationId = `group_${group.getGuid()}`;

  useEffect(() => {
    let current = true;
    void (async () => {
      try {
        const [agent] = await agentsOf(group);
        if (!current || agent === undefined) return;
        setAgentId(agent);
        const found = await takeover(session, 'GET', agent, conversationId);
        if (current) setState(found);
      } catch (error) {
        if (current) announce(`Take-over is not available here: ${messageOf(error)}`, 'error');
      }
    })();
    return () => {
      current = false;
    };
  }, [session, group, conversationId, announce]);

  if (agentId === undefined || state === undefined) return null;
  const toggle = async () => {
    setBusy(true);
    try {
      const next = await takeover(session, state.takenOver ? 'DELETE' : 'PUT', agentId, conversationId);
      setState(next);
      announce(
        next.takenOver ? 'You answer here now; the agent stays silent.' : 'The agent answers here again.',
      );
    } catch (error) {
      announce(messageOf(error), 'error');
    }
    setBusy(false);
  };
  return (
    <button
      type="button"
      className={`button ${state.takenOver ? '' : 'primary'}`}
      disabled={busy}
      onClick={() => void toggle()}
    >
      {state.takenOver ? 'Give back to agent' : 'Take over'}
    </button>
  );
}

interface SignInFailure {
  text: string;
  /** The chat host was not reached: it is down, or its certificate is not trusted here. */
  unreachable: boolean;
}

/** Why signing in failed. */
function signInFailure(error: unknown): SignInFailure {
  const text =
    error instanceof Error
      ? error.message
      : typeof error === 'object' && error !== null && 'message' in error
        ? String((error as { message: unknown }).message)
        : String(error);
  // The SDK reports a request that never got an answer as FAILED_TO_FETCH ("an unknown issue").
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return { text, unreachable: code === 'FAILED_TO_FETCH' || /failed to fetch|network/i.test(text) };
}

/**
 * The step that usually fixes an unreached chat host. The desktop app trusts a self-signed host
 * by the fingerprint in its settings; a plain-http page on this computer reaches a chat host here
 * over plain http (no certificate involved); any other page reaches a self-signed host only once
 * the browser trusts its certificate (the SDK speaks only https/wss, and a page cannot accept a
 * certificate for itself).
 */
function UnreachableHost({
  host,
  reach,
}: {
  host: string;
  reach: 'fingerprint' | 'plain' | 'certificate';
}): ReactElement {
  if (reach === 'fingerprint') {
    return (
      <p className="hint">
        Is the chat service running at https://{host}? With a self-signed certificate, Settings → Chats needs
        its fingerprint, as <code>parley start</code> prints it (“Use the local demo” fills it in).
      </p>
    );
  }
  if (reach === 'plain') {
    return (
      <p className="hint">
        Is the chat service running at http://{host}? This page reaches a chat service on this computer over
        plain http, on the port <code>parley start</code> prints.
      </p>
    );
  }
  return (
    <p className="hint">
      Is the chat service running at https://{host}? This browser reaches it only once it trusts the service’s
      certificate:{' '}
      <a href={`https://${host}/`} target="_blank" rel="noopener noreferrer">
        open https://{host}/
      </a>
      , accept the certificate there (Advanced → Proceed), then try again here. Or trust the certificate file{' '}
      <code>parley start</code> names, for good.
    </p>
  );
}
