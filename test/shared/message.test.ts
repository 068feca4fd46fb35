import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { zodErrorToEnvelope } from '../../shared/errors.js';
import {
  InteractionsRequest,
  MAX_MESSAGE_BYTES,
  Message,
  MessageEnvelope,
  MessageRequest,
  conversationIdFor,
} from '../../shared/message.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures are mutated freely

function fixture(name: string): Json {
  return JSON.parse(readFileSync(new URL(`fixtures/messages/${name}`, import.meta.url), 'utf8')) as Json;
}

/** Every field a rejection names, in the envelope's dotted form. */
function rejectedFields(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to be rejected');
  const fields = zodErrorToEnvelope(result.error).error.details.fields as { field: string }[];
  return fields.map((problem) => problem.field);
}

function textRequest(): Json {
  return {
    receiver: 'cometchat-uid-2',
    receiverType: 'user',
    category: 'message',
    type: 'text',
    data: { text: 'hello' },
  };
}

function imageRequest(): Json {
  return {
    receiver: 'cometchat-uid-2',
    receiverType: 'user',
    category: 'message',
    type: 'image',
    data: {
      attachments: [
        { url: 'https://cdn.example.com/cat.jpg', name: 'cat.jpg', mimeType: 'image/jpeg', size: '4761' },
      ],
    },
  };
}

function customRequest(): Json {
  return {
    receiver: 'bob',
    receiverType: 'user',
    category: 'custom',
    type: 'poll',
    data: { customData: { question: 'lunch?' } },
  };
}

/** One message of the reference, re-serialised: the create-message response of the OpenAPI document. */
function referenceMessage(): Json {
  return fixture('openapi.send-message.response.json').data as Json;
}

describe('message request: what it accepts', () => {
  const sdk = fixture('sdk-wire.requests.json');

  it.each([
    [
      'the create-message sample of service-interface.md',
      fixture('service-interface.create-form-message.request.json'),
    ],
    [
      'the bot-message sample of service-interface.md',
      fixture('service-interface.bot-form-message.request.json'),
    ],
    ['the thread-message body of the OpenAPI document', fixture('openapi.send-thread-message.request.json')],
    ['the SDK text body', sdk.text],
    ['the SDK custom body', sdk.custom],
    ['the SDK interactive body', sdk.interactive],
    ['the SDK group text body', sdk.groupText],
    ['an image by attachments', imageRequest()],
    [
      'a video by url',
      { ...imageRequest(), type: 'video', data: { url: 'https://cdn.example.com/clip.mp4' } },
    ],
    ['a custom message', customRequest()],
  ])('accepts %s', (_name, body) => {
    expect(MessageRequest.safeParse(body).success).toBe(true);
  });

  it('needs no receiver when multipleReceivers names someone', () => {
    const parsed = MessageRequest.parse(fixture('openapi.send-thread-message.request.json'));
    expect(parsed.receiver).toBeUndefined();
    expect(parsed.multipleReceivers?.guids).toEqual(['guid1']);
  });

  it('drops the top-level copies the SDK mirrors out of data', () => {
    const parsed = MessageRequest.parse(sdk.text);
    expect(parsed).not.toHaveProperty('text');
    expect(parsed.data).toMatchObject({ text: 'hello bob from the official SDK' });
  });

  it('keeps the text as sent, spaces included', () => {
    const body = textRequest();
    body.data.text = '  test     hello ';
    expect(MessageRequest.parse(body).data).toMatchObject({ text: '  test     hello ' });
  });

  it('accepts exactly 25 tags of 100 characters', () => {
    const body = { ...textRequest(), tags: Array.from({ length: 25 }, (_, i) => `${i}`.padEnd(100, 't')) };
    expect(MessageRequest.safeParse(body).success).toBe(true);
  });

  it(`accepts data of exactly ${MAX_MESSAGE_BYTES} bytes of JSON`, () => {
    const body = textRequest();
    body.data.text = 'x'.repeat(MAX_MESSAGE_BYTES - '{"text":""}'.length);
    expect(MessageRequest.safeParse(body).success).toBe(true);
  });
});

describe('message request: what it rejects, naming the field', () => {
  it.each<{ name: string; body: () => Json; field: string }>([
    {
      name: 'an unknown receiverType',
      body: () => ({ ...textRequest(), receiverType: 'channel' }),
      field: 'receiverType',
    },
    {
      name: '26 tags',
      body: () => ({ ...textRequest(), tags: Array.from({ length: 26 }, (_, i) => `tag${i}`) }),
      field: 'tags',
    },
    {
      name: 'a tag of 101 characters',
      body: () => ({ ...textRequest(), tags: ['t'.repeat(101)] }),
      field: 'tags.0',
    },
    { name: 'an empty tag', body: () => ({ ...textRequest(), tags: ['ok', ''] }), field: 'tags.1' },
    {
      name: 'a text message without data.text',
      body: () => ({ ...textRequest(), data: {} }),
      field: 'data.text',
    },
    {
      name: 'a text of only spaces',
      body: () => ({ ...textRequest(), data: { text: '   ' } }),
      field: 'data.text',
    },
    {
      name: 'a text given as a number',
      body: () => ({ ...textRequest(), data: { text: 42 } }),
      field: 'data.text',
    },
    {
      name: `a text over ${MAX_MESSAGE_BYTES} bytes of UTF-8 (though fewer characters)`,
      body: () => ({ ...textRequest(), data: { text: 'é'.repeat(MAX_MESSAGE_BYTES / 2 + 1) } }),
      field: 'data.text',
    },
    {
      name: `data over ${MAX_MESSAGE_BYTES} bytes through its metadata`,
      body: () => ({
        ...textRequest(),
        data: { text: 'hi', metadata: { blob: 'x'.repeat(MAX_MESSAGE_BYTES) } },
      }),
      field: 'data',
    },
    { name: 'data that is not an object', body: () => ({ ...textRequest(), data: 'hello' }), field: 'data' },
    {
      name: 'the output-only category action',
      body: () => ({ ...textRequest(), category: 'action' }),
      field: 'category',
    },
    {
      name: 'a missing category',
      body: () => {
        const { category: _category, ...rest } = textRequest();
        return rest;
      },
      field: 'category',
    },
    {
      name: 'a type the message category lacks',
      body: () => ({ ...textRequest(), type: 'sticker' }),
      field: 'type',
    },
    {
      name: 'an interactive type other than form',
      body: () => ({ ...fixture('service-interface.create-form-message.request.json'), type: 'card' }),
      field: 'type',
    },
    {
      name: 'a receiver of 101 characters',
      body: () => ({ ...textRequest(), receiver: 'u'.repeat(101) }),
      field: 'receiver',
    },
    {
      name: 'a receiver with a space',
      body: () => ({ ...textRequest(), receiver: 'bob smith' }),
      field: 'receiver',
    },
    {
      name: 'no receiver and no multipleReceivers',
      body: () => {
        const { receiver: _receiver, ...rest } = textRequest();
        return rest;
      },
      field: 'receiver',
    },
    {
      name: 'no receiver and empty multipleReceivers',
      body: () => {
        const { receiver: _receiver, ...rest } = textRequest();
        return { ...rest, multipleReceivers: { uids: [], guids: [] } };
      },
      field: 'receiver',
    },
    {
      name: 'a receiver without receiverType',
      body: () => {
        const { receiverType: _receiverType, ...rest } = textRequest();
        return rest;
      },
      field: 'receiverType',
    },
    {
      name: 'a malformed UID among multipleReceivers',
      body: () => ({ ...textRequest(), multipleReceivers: { uids: ['bob@example.com'] } }),
      field: 'multipleReceivers.uids.0',
    },
    { name: 'a muid that is empty', body: () => ({ ...textRequest(), muid: '' }), field: 'muid' },
    {
      name: 'metadata that is a string',
      body: () => ({ ...textRequest(), data: { text: 'hi', metadata: 'x' } }),
      field: 'data.metadata',
    },
    {
      name: 'a media message with neither url nor attachments',
      body: () => ({ ...imageRequest(), data: {} }),
      field: 'data.attachments',
    },
    {
      name: 'a media message with an empty attachment list',
      body: () => ({ ...imageRequest(), data: { attachments: [] } }),
      field: 'data.attachments',
    },
    {
      name: 'a media url with the javascript: scheme',
      body: () => ({ ...imageRequest(), data: { url: 'javascript:alert(1)' } }),
      field: 'data.url',
    },
    {
      name: 'an attachment without url',
      body: () => ({ ...imageRequest(), data: { attachments: [{ name: 'cat.jpg' }] } }),
      field: 'data.attachments.0.url',
    },
    {
      name: 'an attachment of negative size',
      body: () => ({
        ...imageRequest(),
        data: { attachments: [{ url: 'https://cdn.example.com/a.png', size: -1 }] },
      }),
      field: 'data.attachments.0.size',
    },
    {
      name: 'a custom message without customData',
      body: () => ({ ...customRequest(), data: {} }),
      field: 'data.customData',
    },
    {
      name: 'customData that is an array',
      body: () => ({ ...customRequest(), data: { customData: ['lunch?'] } }),
      field: 'data.customData',
    },
    {
      name: 'a custom message with an empty type',
      body: () => ({ ...customRequest(), type: '' }),
      field: 'type',
    },
    {
      name: 'a form whose fields share an id',
      body: () => {
        const body = fixture('service-interface.create-form-message.request.json');
        body.data.interactiveData.formFields[1].elementId = 'fullName';
        return body;
      },
      field: 'data.interactiveData.formFields.1.elementId',
    },
    {
      name: 'a form whose goal names a missing element',
      body: () => {
        const body = fixture('service-interface.create-form-message.request.json');
        body.data.interactionGoal.elementIds = ['submit'];
        return body;
      },
      field: 'data.interactionGoal.elementIds.0',
    },
  ])('rejects $name at $field', ({ body, field }) => {
    expect(rejectedFields(MessageRequest, body())).toEqual([field]);
  });

  it('tells a client what the category may be', () => {
    const envelope = zodErrorToEnvelope(
      MessageRequest.safeParse({ ...textRequest(), category: 'call' }).error!,
    );
    expect(envelope.error.message).toBe(
      'category: category must be message, custom or interactive (action and call messages come from the service)',
    );
  });
});

describe('message response', () => {
  const listed = (body: Json): Json[] => body.data as Json[];
  const single = (body: Json): Json[] => [body.data as Json];

  it.each<[string, (body: Json) => Json[]]>([
    ['openapi.send-message.response.json', single],
    ['openapi.send-bot-message.response.json', single],
    ['openapi.get-message-details.response.json', single],
    ['openapi.update-message.response.json', single],
    ['openapi.delete-message.response.json', single],
    ['openapi.send-thread-message.response.json', single],
    ['openapi.add-message-reactions.response.json', single],
    ['openapi.list-all-messages.response.json', listed],
    ['openapi.list-all-thread-messages.response.json', listed],
    ['openapi.user-list-user-messages.response.json', listed],
    ['openapi.user-list-group-messages.response.json', listed],
    [
      'openapi.list-moderation-blocked-messages.response.json',
      (body) => listed(body).map((item) => item.message as Json),
    ],
    ['sdk-wire.messages.json', (body) => body as unknown as Json[]],
  ])('accepts every message of %s', (file, messagesOf) => {
    const messages = messagesOf(fixture(file));
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(Message.safeParse(message).success).toBe(true);
  });

  it('reads the {data: <message>} envelope of create message', () => {
    const envelope = MessageEnvelope.parse(fixture('openapi.send-message.response.json'));
    expect(envelope.data.data.entities.receiver).toMatchObject({
      entityType: 'user',
      entity: { uid: 'cometchat-uid-5' },
    });
  });

  it('reads the edited message nested in an edit action', () => {
    const action = Message.parse(fixture('openapi.update-message.response.json').data);
    const on = action.data.entities.on;
    expect(on?.entityType === 'message' ? on.entity.editedAt : undefined).toBe(1641477338);
  });

  it('keeps thread and tag members', () => {
    expect(Message.parse(fixture('openapi.send-thread-message.response.json').data).parentId).toBe('1');
  });

  it.each<{ name: string; mutate: (message: Json) => void; field: string }>([
    { name: 'a numeric id', mutate: (m) => (m.id = 1), field: 'id' },
    { name: 'sentAt in milliseconds', mutate: (m) => (m.sentAt = 1638423490000), field: 'sentAt' },
    { name: 'a fractional updatedAt', mutate: (m) => (m.updatedAt = 1638423490.5), field: 'updatedAt' },
    {
      name: 'a conversationId in the wrong order',
      mutate: (m) => (m.conversationId = 'cometchat-uid-5_user_cometchat-uid-3'),
      field: 'conversationId',
    },
    { name: 'a category nobody sends', mutate: (m) => (m.category = 'poll'), field: 'category' },
    {
      name: 'a message without its sender entity',
      mutate: (m) => delete m.data.entities.sender,
      field: 'data.entities.sender',
    },
    {
      name: 'an entity of unknown type',
      mutate: (m) => (m.data.entities.receiver.entityType = 'robot'),
      field: 'data.entities.receiver.entityType',
    },
    {
      name: 'a user entity without name',
      mutate: (m) => delete m.data.entities.sender.entity.name,
      field: 'data.entities.sender.entity.name',
    },
    {
      name: 'a group entity of unknown group type',
      mutate: (m) => {
        Object.assign(m, {
          receiverType: 'group',
          receiver: 'project-group',
          conversationId: 'group_project-group',
        });
        m.data.entities.receiver = {
          entityType: 'group',
          entity: { guid: 'project-group', name: 'Project', type: 'secret' },
        };
      },
      field: 'data.entities.receiver.entity.type',
    },
  ])('rejects $name at $field', ({ mutate, field }) => {
    const message = referenceMessage();
    mutate(message);
    expect(rejectedFields(Message, message)).toEqual([field]);
  });
});

describe('conversationIdFor', () => {
  it('joins the two UIDs of a one-to-one chat in ascending order, whoever sends', () => {
    const forward = conversationIdFor({
      receiverType: 'user',
      sender: 'cometchat-uid-3',
      receiver: 'cometchat-uid-2',
    });
    const backward = conversationIdFor({
      receiverType: 'user',
      sender: 'cometchat-uid-2',
      receiver: 'cometchat-uid-3',
    });
    expect([forward, backward]).toEqual([
      'cometchat-uid-2_user_cometchat-uid-3',
      'cometchat-uid-2_user_cometchat-uid-3',
    ]);
  });

  it('matches the id of every message of the reference', () => {
    const messages = [
      ...(fixture('openapi.user-list-user-messages.response.json').data as Json[]),
      ...(fixture('sdk-wire.messages.json') as unknown as Json[]),
      fixture('openapi.update-message.response.json').data as Json,
    ];
    for (const message of messages) {
      expect(conversationIdFor(message as Parameters<typeof conversationIdFor>[0])).toBe(
        message.conversationId,
      );
    }
  });

  it('lower-cases UIDs, which CometChat treats case-insensitively', () => {
    expect(conversationIdFor({ receiverType: 'user', sender: 'Alice', receiver: 'BOB' })).toBe(
      'alice_user_bob',
    );
  });

  it('names a group conversation after its GUID', () => {
    expect(conversationIdFor({ receiverType: 'group', sender: 'alice', receiver: 'Devs' })).toBe(
      'group_devs',
    );
  });
});

describe('interactions request of PATCH /messages/{id}/interacted', () => {
  it('accepts the body markAsInteracted sends', () => {
    expect(InteractionsRequest.parse({ interactions: ['submit'] })).toEqual({ interactions: ['submit'] });
  });

  it.each([
    ['no element ids', { interactions: [] }, 'interactions'],
    ['an empty element id', { interactions: ['submit', ''] }, 'interactions.1'],
    ['a bare element id instead of a list', { interactions: 'submit' }, 'interactions'],
  ])('rejects %s', (_name, body, field) => {
    expect(rejectedFields(InteractionsRequest, body)).toEqual([field]);
  });
});
