import type { CometChat } from '@cometchat/chat-sdk-javascript';
import { CometChatTextPlugin, type CometChatMessagePlugin } from '@cometchat/chat-uikit-react';
import type { ReactElement } from 'react';
import { z } from 'zod';
import { SourceRef } from '../../../shared/agent.js';
import { placeOf } from '../lib/source-target.js';

/** A citation as the agent bridge puts it in `data.metadata.sources` (snippets may be shortened). */
const ChatCitation = SourceRef.extend({ n: z.number().int().positive(), snippet: z.string().default('') });
export type ChatCitation = z.infer<typeof ChatCitation>;

const AgentMetadata = z.looseObject({
  sources: z.array(ChatCitation).min(1),
  agent: z.looseObject({ id: z.string(), namespace: z.string().optional() }),
});

/** The sources of an agent's answer and the namespace they come from, or nothing for other messages. */
export function agentSourcesOf(message: CometChat.BaseMessage): z.infer<typeof AgentMetadata> | undefined {
  const metadata = (message as CometChat.TextMessage).getMetadata?.();
  const parsed = AgentMetadata.safeParse(metadata);
  return parsed.success ? parsed.data : undefined;
}

/** Opens a cited source, or says why it cannot (its namespace is not on this computer). */
export type OpenCitation = (citation: ChatCitation, namespace: string | undefined) => void;

function AgentSources({
  sources,
  namespace,
  canOpen,
  onOpen,
}: {
  sources: ChatCitation[];
  namespace: string | undefined;
  canOpen: boolean;
  onOpen: OpenCitation;
}): ReactElement {
  return (
    <div className="chat-sources">
      <h4>Sources</h4>
      <ol>
        {sources.map((source) => (
          <li key={source.n}>
            {canOpen ? (
              <button type="button" className="source-link" onClick={() => onOpen(source, namespace)}>
                <span className="source-number">{source.n}</span>
                <span className="source-title">{source.title}</span>
                {placeOf(source) ? <span className="pill">{placeOf(source)}</span> : null}
              </button>
            ) : (
              <span className="source-link">
                <span className="source-number">{source.n}</span>
                <span className="source-title">{source.title}</span>
                {placeOf(source) ? <span className="pill">{placeOf(source)}</span> : null}
              </span>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

/**
 * The UI Kit's text bubble, with the sources of agent answers beneath: sources from a namespace
 * this computer holds open the document viewer at the cited page. Listed before the kit's own
 * plugins, so it is the one that renders text messages.
 */
export function agentTextPlugin(
  localNamespaces: ReadonlySet<string>,
  onOpen: OpenCitation,
): CometChatMessagePlugin {
  return {
    ...CometChatTextPlugin,
    id: 'parley-agent-text',
    renderBottomView(message, context) {
      const agent = agentSourcesOf(message);
      if (agent === undefined) return CometChatTextPlugin.renderBottomView?.(message, context);
      const namespace = agent.agent.namespace;
      return (
        <AgentSources
          sources={agent.sources}
          namespace={namespace}
          canOpen={namespace !== undefined && localNamespaces.has(namespace)}
          onOpen={onOpen}
        />
      );
    },
  };
}
