import { useState, type ReactElement } from 'react';
import { AGENT_KEY } from '../../../shared/agent.js';
import { CopyField } from '../components/copy-field.js';
import { Icon } from '../components/icons.js';
import { messageOf, useWindow } from '../context.js';

type Check =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'ok'; ms: number }
  | { state: 'failed'; error: string };

const isLoopback = (host: string) => /^(localhost|127\.|\[::1\])/.test(host);

/** The three values a chat product's dashboard asks for to add this agent, and a check that it answers. */
export function ConnectView(): ReactElement {
  const { client } = useWindow();
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const deploymentUrl = `${client.baseUrl.replace(/\/+$/, '')}/agents/${AGENT_KEY}/generate`;
  const host = new URL(deploymentUrl).host;

  const runCheck = async () => {
    setCheck({ state: 'checking' });
    const started = performance.now();
    try {
      // A turn that does not mention the agent: it answers at once without searching anything.
      const answer = await client.generate({ messages: [{ role: 'user', content: 'reachability check' }] });
      if (answer.addressed) throw new Error('the URL answered, but not as the knowledge agent does');
      setCheck({ state: 'ok', ms: Math.round(performance.now() - started) });
    } catch (error) {
      setCheck({ state: 'failed', error: messageOf(error) });
    }
  };

  return (
    <section className="page" aria-labelledby="connect-title">
      <header className="page-header">
        <div>
          <p className="eyebrow">Connect</p>
          <h1 id="connect-title">Connect to a chat product</h1>
          <p className="muted">
            In the chat product’s dashboard, add an AI agent with these three values. When someone mentions
            the agent in a conversation, the chat product sends it the conversation and posts the answer with
            its sources.
          </p>
        </div>
      </header>
      <div className="card connect-card">
        <CopyField id="connect-provider" label="Provider" value="Mastra" />
        <CopyField id="connect-agent" label="Agent ID" value={AGENT_KEY} />
        <CopyField id="connect-url" label="Deployment URL" value={deploymentUrl} />
        <div className="check-row">
          <button
            type="button"
            className="button"
            onClick={() => void runCheck()}
            disabled={check.state === 'checking'}
          >
            <Icon name="refresh" /> {check.state === 'checking' ? 'Checking…' : 'Check that it is reachable'}
          </button>
          <p className={`check-result ${check.state}`} role="status">
            {check.state === 'ok' ? `Reachable: the agent answered in ${check.ms} ms.` : null}
            {check.state === 'failed' ? `Not reachable: ${check.error}` : null}
          </p>
        </div>
        {isLoopback(host) ? (
          <p className="hint">
            {host} is reachable only from this computer. A chat product on another machine needs an address it
            can reach: bind the agent to a network address (in Settings, or <code>parley agent --host</code>)
            and set an API key.
          </p>
        ) : null}
      </div>
    </section>
  );
}
