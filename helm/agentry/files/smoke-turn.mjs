// One scripted turn through a running installation: log in, create an agent on the scripted model and a
// local environment, open a session, send a message, wait until the session is idle again with end_turn.
// Used by `helm test`; runs on any Node >= 20 with no dependencies. Exit code 0 means the turn ran.
const base = (process.env.AGENTRY_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const username = process.env.AGENTRY_ADMIN_USERNAME ?? 'admin';
const password = process.env.AGENTRY_ADMIN_PASSWORD ?? '';
const deadline = Date.now() + Number(process.env.AGENTRY_SMOKE_TIMEOUT_MS ?? 60000);

async function call(method, path, body, token) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

const { token } = await call('POST', '/api/auth/login', { username, password });
const agent = await call('POST', '/v1/agents', { name: 'helm-test', model: { id: 'scripted' } }, token);
const environment = await call(
  'POST',
  '/v1/environments',
  { name: 'helm-test', config: { type: 'local' } },
  token,
);
const session = await call(
  'POST',
  '/v1/sessions',
  { agent: agent.id, environment_id: environment.id },
  token,
);
await call(
  'POST',
  `/v1/sessions/${session.id}/events`,
  { events: [{ type: 'user.message', content: [{ type: 'text', text: 'ping' }] }] },
  token,
);
for (;;) {
  const events = await call('GET', `/v1/sessions/${session.id}/events?limit=100`, undefined, token);
  const reply = events.data.find((e) => e.type === 'agent.message');
  const idle = events.data.find((e) => e.type === 'session.status_idle');
  if (reply && idle) {
    if (idle.stop_reason?.type !== 'end_turn')
      throw new Error(`turn stopped with ${JSON.stringify(idle.stop_reason)}`);
    console.log(`turn ok: session ${session.id}, ${events.data.length} events`);
    break;
  }
  if (Date.now() > deadline)
    throw new Error(`no reply within the deadline: ${events.data.map((e) => e.type).join(', ')}`);
  await new Promise((r) => setTimeout(r, 500));
}
await call('POST', `/v1/sessions/${session.id}/archive`, {}, token).catch(() => undefined);
