import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../../server/notifications/template.js';

const view = {
  message: { type: 'text', data: { text: 'Tea at <5>?', entities: { sender: { entity: { name: 'Ann' } } } } },
  messages: [{ id: '1' }, { id: '2' }],
  muted: false,
};

describe('template rendering', () => {
  it('fills dotted paths from the view', () => {
    expect(renderTemplate('{{message.data.entities.sender.entity.name}}: {{message.data.text}}', view)).toBe(
      'Ann: Tea at <5>?',
    );
  });

  it('prints text as is, without HTML escaping, in every tag form', () => {
    expect(renderTemplate('{{message.data.text}}|{{{message.data.text}}}|{{&message.data.text}}', view)).toBe(
      'Tea at <5>?|Tea at <5>?|Tea at <5>?',
    );
  });

  it('reads the length of lists and text', () => {
    expect(renderTemplate('{{messages.length}} / {{message.data.text.length}}', view)).toBe('2 / 11');
  });

  it('prints nothing for names the view lacks', () => {
    expect(renderTemplate('[{{message.data.missing}}][{{nowhere.at.all}}]', view)).toBe('[][]');
  });

  it('prints nothing for a whole object named by mistake', () => {
    expect(renderTemplate('[{{message}}][{{{message.data}}}]', view)).toBe('[][]');
  });

  it('keeps sections and inverted sections (logic-less, no helpers)', () => {
    expect(renderTemplate('{{#messages}}<{{id}}>{{/messages}}{{^muted}} loud{{/muted}}', view)).toBe(
      '<1><2> loud',
    );
  });

  it('has no partials to include', () => {
    expect(renderTemplate('a{{> secrets}}b', view)).toBe('ab');
  });

  describe('gives no access to prototypes', () => {
    const attempts = [
      '{{constructor}}',
      '{{constructor.name}}',
      '{{__proto__}}',
      '{{__proto__.constructor.name}}',
      '{{message.constructor.name}}',
      '{{message.__proto__.toString}}',
      '{{message.data.text.constructor.name}}',
      '{{message.data.text.constructor.fromCharCode}}',
      '{{messages.constructor.name}}',
      '{{messages.map}}',
      '{{toString}}',
      '{{valueOf}}',
      '{{hasOwnProperty}}',
      '{{#message}}{{constructor.name}}{{/message}}',
      '{{#constructor}}reached{{/constructor}}',
      '{{#message.data.text.constructor}}reached{{/message.data.text.constructor}}',
    ];

    it.each(attempts)('%s renders nothing', (template) => {
      expect(renderTemplate(template, view)).toBe('');
    });

    it('does not reach Object.prototype through a __proto__ member of the data', () => {
      const parsed = JSON.parse('{"__proto__": {"polluted": "yes"}, "name": "x"}') as object;
      expect(renderTemplate('{{__proto__.polluted}}|{{name}}|{{constructor.name}}', parsed)).toBe('yes|x|');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  it('never calls functions found in the view', () => {
    let called = false;
    const withFunction = {
      greet: () => {
        called = true;
        return 'hi';
      },
    };
    expect(renderTemplate('{{greet}}{{#greet}}x{{/greet}}', withFunction)).toBe('');
    expect(called).toBe(false);
  });
});
