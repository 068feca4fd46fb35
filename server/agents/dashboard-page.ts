import { Hono } from 'hono';
import type { ChatEnv } from '../http/context.js';
import { PROVIDER_KINDS } from '../notifications/index.js';

/** Every provider kind as `[channel, name]`, in the order the service applies them. */
const PROVIDERS = PROVIDER_KINDS.map((kind) => [kind.channel, kind.name] as const);

/**
 * `/dashboard`: a page to manage an app's AI agents and the conversations taken over from them,
 * its notification providers (secrets write-only), test sends and delivery log, and the messages
 * users flagged (with each flag's reason and remark), entered with the app's id and fullAccess key.
 * It only calls the REST API (`/v3/ai-agents`, `/v3/notifications/…`, `/v3/moderation/…`) from the browser; the key stays in the page's
 * memory. Script and styles are served as files so the page runs under a strict CSP.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley dashboard</title><link rel="stylesheet" href="/dashboard/dashboard.css"></head>
<body><main>
<h1>Parley dashboard</h1>
<form id="enter"><fieldset><legend>App</legend>
<label>App ID <input name="appId" required autocomplete="off"></label>
<label>REST API key (fullAccess) <input name="apiKey" type="password" required autocomplete="off"></label>
<button>Enter</button></fieldset></form>
<section id="agents" hidden>
<h2>AI agents</h2>
<table><thead><tr><th>Agent ID</th><th>Name</th><th>Provider</th><th>Deployment URL</th><th>Namespace</th><th>Enabled</th><th></th></tr></thead><tbody></tbody></table>
<form id="register"><fieldset><legend>Register an agent</legend>
<label>Agent ID <input name="agentId" required value="knowledge"></label>
<label>Display name <input name="name" required value="Knowledge"></label>
<label>Provider <select name="provider"><option value="mastra">Mastra</option></select></label>
<label>Deployment URL <input name="deploymentUrl" type="url" required placeholder="http://localhost:4111/api/agents/knowledge/generate"></label>
<label>Namespace <input name="namespace" required value="default"></label>
<label><input name="enabled" type="checkbox" checked> Enabled</label>
<button>Register</button></fieldset></form>
<h2>Taken over</h2>
<p>In these conversations a person answers: the agent stays silent until the conversation is given back.</p>
<table id="takeovers"><thead><tr><th>Agent ID</th><th>Conversation</th><th>By</th><th></th></tr></thead><tbody></tbody></table>
<form id="takeover"><fieldset><legend>Take a conversation over</legend>
<label>Agent ID <input name="agentId" required value="knowledge"></label>
<label>Conversation ID <input name="conversationId" required placeholder="group_parley-demo"></label>
<button>Take over</button></fieldset></form>
<h2>Flagged messages</h2>
<p>Messages users flagged for review, most recently flagged first.</p>
<table id="flagged"><thead><tr><th>Message</th><th>Sender</th><th>Text</th><th>Flagged by</th><th>Reason</th><th>Remark</th></tr></thead><tbody></tbody></table>
</section>
<section id="notifications" hidden>
<h2>Notification providers</h2>
<p>Secret fields (passwords, keys, tokens) are write-only: they are never shown here.</p>
<table id="providers"><thead><tr><th>Channel</th><th>Provider</th><th>ID</th><th>Enabled</th><th>Settings</th></tr></thead><tbody></tbody></table>
<form id="provider"><fieldset><legend>Save a provider</legend>
<label>Channel and provider <select name="provider">${PROVIDERS.map(([channel, name]) => `<option value="${channel}/${name}">${channel}: ${name}</option>`).join('')}</select></label>
<label>Configuration (JSON) <textarea name="config" rows="6" required placeholder='{"isEnabled": true, "webhookURL": "https://hooks.example.com/push", "useBasicAuth": false}'></textarea></label>
<button>Save provider</button></fieldset></form>
<form id="test-send"><fieldset><legend>Send a test notification</legend>
<label>To user (UID) <input name="uid" required></label>
<button name="channel" value="push">Test push</button><button name="channel" value="email">Test e-mail</button><button name="channel" value="sms">Test SMS</button>
</fieldset></form>
<h2>Delivery log</h2>
<form id="log"><fieldset><legend>Why was (or wasn't) someone notified?</legend>
<label>User (UID) <input name="uid" required></label><button>Show log</button></fieldset></form>
<table id="deliveries"><thead><tr><th>When</th><th>Channel</th><th>Trigger</th><th>Sent</th><th>Why not</th><th>Delivery</th><th>Last error</th></tr></thead><tbody></tbody></table>
</section>
<p id="status" role="status"></p>
</main><script src="/dashboard/dashboard.js"></script></body></html>`;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:960px;margin:2rem auto;padding:0 1rem}fieldset{border:1px solid #ccd;border-radius:8px;margin:1rem 0;padding:1rem;display:grid;gap:.5rem}
label{display:grid;gap:.2rem}button{justify-self:start;padding:.4rem 1rem}table{width:100%;border-collapse:collapse;background:#fff}
th,td{border-bottom:1px solid #e3e6ea;padding:.4rem;text-align:left;word-break:break-all}#status{min-height:1.5em}`;

const SCRIPT = `'use strict';
let credentials;
const status = document.getElementById('status');
const say = (text) => { status.textContent = text; };
async function api(method, path, body) {
  const response = await fetch('/v3' + path, { method, headers: { appId: credentials.appId, apikey: credentials.apiKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json();
  if (json.error) throw new Error(json.error.message);
  return json.data;
}
function cell(text) { const td = document.createElement('td'); td.textContent = String(text); return td; }
const takeoverPath = (agentId, conversationId) => '/ai-agents/' + encodeURIComponent(agentId) + '/conversations/' + encodeURIComponent(conversationId) + '/takeover';
async function refreshTakeovers(agents) {
  const lists = await Promise.all(agents.map((agent) => api('GET', '/ai-agents/' + encodeURIComponent(agent.agentId) + '/takeovers')));
  document.querySelector('#takeovers tbody').replaceChildren(...lists.flat().map((takeover) => {
    const row = document.createElement('tr');
    row.append(cell(takeover.agentId), cell(takeover.conversationId), cell(takeover.takenOverBy || 'server API'));
    const giveBack = document.createElement('button'); giveBack.textContent = 'Give back to agent';
    giveBack.addEventListener('click', () => api('DELETE', takeoverPath(takeover.agentId, takeover.conversationId)).then(refresh, (e) => say(e.message)));
    const actions = document.createElement('td'); actions.append(giveBack); row.append(actions);
    return row;
  }));
}
async function refreshFlagged() {
  const flagged = await api('GET', '/moderation/flagged-messages');
  document.querySelector('#flagged tbody').replaceChildren(...flagged.flatMap((item) => item.flags.map((flag) => {
    const row = document.createElement('tr');
    const text = item.message.data && typeof item.message.data.text === 'string' ? item.message.data.text : item.message.type;
    row.append(cell(item.message.id), cell(item.message.sender), cell(text), cell(flag.flaggedBy.uid), cell(flag.reason.name), cell(flag.remark || ''));
    return row;
  })));
}
async function refresh() {
  const agents = await api('GET', '/ai-agents');
  await refreshTakeovers(agents);
  await refreshFlagged();
  const body = document.querySelector('#agents tbody');
  body.replaceChildren(...agents.map((agent) => {
    const row = document.createElement('tr');
    row.append(cell(agent.agentId), cell(agent.name), cell(agent.provider), cell(agent.deploymentUrl), cell(agent.namespace));
    const enabled = document.createElement('input');
    enabled.type = 'checkbox'; enabled.checked = agent.enabled; enabled.setAttribute('aria-label', 'enabled');
    enabled.addEventListener('change', () => api('PUT', '/ai-agents/' + encodeURIComponent(agent.agentId), { enabled: enabled.checked }).then(() => say('Saved.'), (e) => say(e.message)));
    const toggle = document.createElement('td'); toggle.append(enabled); row.append(toggle);
    const remove = document.createElement('button'); remove.textContent = 'Remove';
    remove.addEventListener('click', () => api('DELETE', '/ai-agents/' + encodeURIComponent(agent.agentId)).then(refresh, (e) => say(e.message)));
    const actions = document.createElement('td'); actions.append(remove); row.append(actions);
    return row;
  }));
}
document.getElementById('enter').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  credentials = { appId: form.get('appId'), apiKey: form.get('apiKey') };
  try { await refresh(); await refreshProviders(); document.getElementById('agents').hidden = false; document.getElementById('notifications').hidden = false; say('Signed in to ' + credentials.appId + '.'); }
  catch (error) { say(error.message); }
});
document.getElementById('register').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    await api('POST', '/ai-agents', { agentId: form.get('agentId'), name: form.get('name'), provider: form.get('provider'), deploymentUrl: form.get('deploymentUrl'), namespace: form.get('namespace'), enabled: form.get('enabled') === 'on' });
    await refresh(); say('Registered.');
  } catch (error) { say(error.message); }
});
const PROVIDER_KINDS = ${JSON.stringify(PROVIDERS)};
const providerPath = (channel, kind) => '/notifications/' + channel + '/v1/providers/' + kind;
async function refreshProviders() {
  const lists = await Promise.all(PROVIDER_KINDS.map(async ([channel, kind]) => {
    const data = await api('GET', providerPath(channel, kind));
    const configs = Array.isArray(data) ? data : Object.keys(data).length === 0 ? [] : [data];
    return configs.map((config) => ({ channel, kind, config }));
  }));
  document.querySelector('#providers tbody').replaceChildren(...lists.flat().map(({ channel, kind, config }) => {
    const { providerId, isDefault, updatedAt, isEnabled, ...settings } = config;
    const row = document.createElement('tr');
    row.append(cell(channel), cell(kind), cell(providerId + (isDefault ? ' (default)' : '')), cell(isEnabled === false ? 'no' : 'yes'), cell(JSON.stringify(settings)));
    return row;
  }));
}
document.getElementById('provider').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    const config = JSON.parse(form.get('config'));
    await api('POST', providerPath(...form.get('provider').split('/')), config);
    event.target.elements.config.value = '';
    await refreshProviders(); say('Provider saved.');
  } catch (error) { say(error.message); }
});
document.getElementById('test-send').addEventListener('submit', async (event) => {
  event.preventDefault();
  const channel = event.submitter.value;
  try { await api('POST', '/notifications/v1/test', { channel, uid: new FormData(event.target).get('uid') }); say('Test ' + channel + ' queued.'); }
  catch (error) { say(error.message); }
});
document.getElementById('log').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const entries = await api('GET', '/notifications/v1/logs?uid=' + encodeURIComponent(new FormData(event.target).get('uid')));
    document.querySelector('#deliveries tbody').replaceChildren(...entries.map((entry) => {
      const row = document.createElement('tr');
      row.append(cell(new Date(entry.createdAt * 1000).toISOString()), cell(entry.channel || '-'), cell(entry.trigger), cell(entry.notificationTriggered ? 'yes' : 'no'), cell(entry.reason || ''), cell(entry.delivery ? entry.delivery.status + ' after ' + entry.delivery.attempts + ' attempt(s)' : ''), cell(entry.delivery && entry.delivery.lastError || ''));
      return row;
    }));
    say(entries.length + ' log entries.');
  } catch (error) { say(error.message); }
});
document.getElementById('takeover').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try { await api('PUT', takeoverPath(form.get('agentId'), form.get('conversationId'))); await refresh(); say('Taken over.'); }
  catch (error) { say(error.message); }
});
`;

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function dashboardPage(app: Hono<ChatEnv>): void {
  const page = new Hono<ChatEnv>();
  page.get('/', (c) => c.html(PAGE, 200, SECURITY_HEADERS));
  page.get('/dashboard.js', (c) =>
    c.body(SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8', ...SECURITY_HEADERS }),
  );
  page.get('/dashboard.css', (c) =>
    c.body(STYLE, 200, { 'content-type': 'text/css; charset=utf-8', ...SECURITY_HEADERS }),
  );
  app.route('/dashboard', page);
}
