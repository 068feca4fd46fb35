import type { ChatService, Content } from '../../../widget/support/chat-service.js';

/** A form with every kind of field the widget draws; "Book" submits it once and closes it. */
export const walkthroughForm = {
  category: 'interactive',
  type: 'form',
  data: {
    interactionGoal: { type: 'allOf', elementIds: ['book'] },
    interactiveData: {
      title: 'Book a walkthrough',
      goalCompletionText: 'Thanks, we will be in touch.',
      formFields: [
        {
          elementType: 'textInput',
          elementId: 'name',
          label: 'Your name',
          placeholder: { text: 'Jane Doe' },
        },
        {
          elementType: 'dropdown',
          elementId: 'team',
          label: 'Team size',
          options: [
            { value: 's', label: '1-10' },
            { value: 'm', label: '11-50' },
          ],
        },
        {
          elementType: 'singleSelect',
          elementId: 'slot',
          label: 'Slot',
          options: [
            { value: 'am', label: 'Morning' },
            { value: 'pm', label: 'Afternoon' },
          ],
        },
        {
          elementType: 'checkbox',
          elementId: 'topics',
          label: 'Topics',
          optional: true,
          options: [
            { value: 'agents', label: 'Agents' },
            { value: 'widget', label: 'Widget' },
          ],
        },
        {
          elementType: 'dateTime',
          elementId: 'day',
          label: 'Day',
          mode: 'date',
          from: '2030-01-01',
          to: '2030-12-31',
          timezoneCode: 'Europe/Paris',
        },
      ],
      submitElement: {
        elementType: 'button',
        elementId: 'book',
        buttonText: 'Book',
        disableAfterInteracted: true,
      },
    },
  },
} satisfies Content;

/** Conversations that show every kind of message the widget draws: text, an agent answer, a form. */
export async function seedShowcase(service: ChatService): Promise<void> {
  await service.sendAs(
    'bob',
    { type: 'user', id: 'alice' },
    { data: { text: 'Hi Alice! Did you get the quarterly report?' } },
  );
  await service.sendAs(
    'alice',
    { type: 'user', id: 'bob' },
    { data: { text: 'Yes, reading it now.\nLooks great so far.' } },
  );
  await service.sendAs('bob', { type: 'user', id: 'alice' }, walkthroughForm);
  await service.sendAs('carol', { type: 'group', id: 'support' }, { data: { text: 'Standup in 5 minutes' } });
  await service.sendAs(
    'alice',
    { type: 'group', id: 'support' },
    { data: { text: '@knowledge how do I reset a password?' } },
  );
  await service.sendAs(
    'knowledge',
    { type: 'group', id: 'support' },
    {
      data: {
        text:
          'Open **Settings → Security** and choose *Reset password* [1]. A link follows by e-mail within a minute [2].\n\n' +
          '- Links expire after 24 hours\n- Admins can run `parley users reset <uid>`\n\nSources:\n[1] Admin guide, p. 4\n[2] FAQ',
        metadata: {
          sources: [
            { n: 1, title: 'Admin guide', page: 4, url: 'https://docs.example.com/admin.pdf' },
            { n: 2, title: 'FAQ', url: 'https://docs.example.com/faq' },
          ],
        },
      },
    },
  );
}
