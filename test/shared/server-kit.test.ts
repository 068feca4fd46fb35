import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createLogger,
  limitRequests,
  parseWith,
  perMinuteInMemory,
  readForm,
  readJson,
  refusalOf,
  requestLines,
  RequestProblem,
  type EmptyBody,
} from '../../shared/server-kit/index.js';

let server: ServerType | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** A real server on an ephemeral port whose errors answer `{status, message, details}`. */
async function listen(app: Hono): Promise<string> {
  app.onError((error, c) => {
    const refusal = refusalOf(error);
    if (!refusal) return c.json({ message: 'internal' }, 500);
    return c.json({ message: refusal.message, details: refusal.details }, refusal.status);
  });
  return new Promise((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
}

const post = (url: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

async function echoServer(empty: EmptyBody): Promise<string> {
  const app = new Hono();
  app.post('/echo', async (c) => c.json({ body: await readJson(c, empty) }));
  return listen(app);
}

describe('readJson', () => {
  it('refuses an empty body with 400 naming the body where the API needs one', async () => {
    const response = await post(`${await echoServer('refuse')}/echo`, '  ');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: 'body: a JSON body is required',
      details: { field: 'body' },
    });
  });

  it("reads an empty body as {} where CometChat's API allows one", async () => {
    const response = await post(`${await echoServer('empty-object')}/echo`, '');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ body: {} });
  });

  it('refuses a body that is not JSON with 400 whichever way empty bodies are read', async () => {
    for (const empty of ['refuse', 'empty-object'] as const) {
      const response = await post(`${await echoServer(empty)}/echo`, '{"query":');
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBe('body: not valid JSON');
      server?.close();
    }
  });
});

describe('readForm', () => {
  async function formServer(): Promise<string> {
    const app = new Hono();
    app.post('/form', async (c) => {
      const form = await readForm(c);
      const file = form.get('file');
      return c.json({
        title: form.get('title'),
        file: file instanceof File ? [file.name, await file.text()] : null,
      });
    });
    return listen(app);
  }

  it('reads the fields and files of a multipart body', async () => {
    const form = new FormData();
    form.set('title', 'Rotor');
    form.set('file', new File(['blades'], 'rotor.md'));
    const response = await fetch(`${await formServer()}/form`, { method: 'POST', body: form });
    expect(await response.json()).toEqual({ title: 'Rotor', file: ['rotor.md', 'blades'] });
  });

  it('refuses a body labelled multipart that is not one with 400 naming the body', async () => {
    const response = await fetch(`${await formServer()}/form`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: 'not a form',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: 'body: not valid multipart form data',
      details: { field: 'body' },
    });
  });
});

describe('parseWith', () => {
  const Search = z.object({ query: z.string(), limit: z.number().int().max(100) });

  it('returns the parsed value of valid input', () => {
    expect(parseWith(Search, { query: 'lift', limit: 6 })).toEqual({ query: 'lift', limit: 6 });
  });

  it('throws a 400 naming the first field at fault and listing every field', () => {
    let thrown: unknown;
    try {
      parseWith(Search, { query: 3, limit: 500 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RequestProblem);
    const problem = thrown as RequestProblem;
    expect(problem.status).toBe(400);
    expect(problem.message).toMatch(/^query: /);
    expect(problem.details).toMatchObject({
      field: 'query',
      fields: [{ field: 'query' }, { field: 'limit' }],
    });
  });
});

describe('refusalOf', () => {
  it("keeps Hono's own 4xx exceptions as refusals and leaves other errors to the server", () => {
    expect(refusalOf(new HTTPException(413))?.status).toBe(413);
    expect(refusalOf(new HTTPException(503))).toBeUndefined();
    expect(refusalOf(new Error('disk full'))).toBeUndefined();
  });
});

describe('limitRequests', () => {
  async function limitedServer(perMinute: number): Promise<string> {
    const app = new Hono();
    const limit = perMinuteInMemory(perMinute, 'test');
    app.use(
      limitRequests({
        limitFor: () => limit,
        keyOf: (c) => c.req.header('x-caller') ?? 'anyone',
        refusal: ({ limit: most, retryAfter }) =>
          new RequestProblem(429, `at most ${most} per minute`, { retryAfter }),
      }),
    );
    app.get('/', (c) => c.text('ok'));
    return listen(app);
  }

  it('refuses the request past the limit with 429, Retry-After and the refusal the server chose', async () => {
    const url = await limitedServer(2);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await fetch(url, { headers: { 'x-caller': 'a' } }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    const refused = answers[2]!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe('2');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(await refused.json()).toMatchObject({ message: 'at most 2 per minute' });
  });

  it('counts each key apart', async () => {
    const url = await limitedServer(2);
    const statuses = [];
    for (const caller of ['a', 'a', 'b', 'b', 'a']) {
      statuses.push((await fetch(url, { headers: { 'x-caller': caller } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});

describe('the structured logger', () => {
  it('writes one JSON line per event with time, level, event and fields', () => {
    const lines: string[] = [];
    createLogger((line) => lines.push(line)).warn('disk_low', { freeMb: 12 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toEqual({ time: expect.any(String), level: 'warn', event: 'disk_low', freeMb: 12 });
    expect(Number.isNaN(Date.parse(entry.time as string))).toBe(false);
  });

  it('logs a request line with the route pattern, never the path', async () => {
    const lines: string[] = [];
    const app = new Hono();
    app.use(requestLines(createLogger((line) => lines.push(line))));
    app.get('/tokens/:token', (c) => c.text('ok'));
    const url = await listen(app);
    expect((await fetch(`${url}/tokens/secret-token-value`)).status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('secret-token-value');
    expect(JSON.parse(lines[0]!)).toEqual({
      time: expect.any(String),
      level: 'info',
      event: 'request',
      method: 'GET',
      route: '/tokens/:token',
      status: 200,
      ms: expect.any(Number),
    });
  });
});
