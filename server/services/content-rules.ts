import type { MessageRequest } from '../../shared/message.js';
import type { ModerationCondition, ModerationRule } from '../../shared/moderation-rules.js';
import { AppCache, type ChangeNotices } from '../repositories/app-cache.js';
import type { HeldBy, HeldDraft, ModerationRuleRepository } from '../repositories/moderation-rules.js';
import { nowSeconds } from '../time.js';

/** A condition ready to test: a matcher over the operand's text. */
interface CompiledCondition {
  condition: ModerationCondition;
  operand: ModerationCondition['operand'];
  matches: (text: string) => boolean;
}

interface CompiledRule {
  rule: HeldBy['rule'];
  conditions: CompiledCondition[];
}

/** Letters, digits and `_` make up words: a term matches only where none touches it. */
const WORD_EDGE_BEFORE = '(?<![\\p{L}\\p{N}_])';
const WORD_EDGE_AFTER = '(?![\\p{L}\\p{N}_])';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A matcher for whole words or phrases (`contains`) or the whole text (`equals`), ignoring case.
 * The terms are literals in one alternation, so matching takes time linear in the text and terms:
 * no term an app writes can make it backtrack without end.
 */
function matcherOf(
  operator: ModerationCondition['operator'],
  terms: ReadonlyArray<string>,
): (text: string) => boolean {
  const normalized = [
    ...new Set(terms.map((term) => term.trim().toLowerCase()).filter((term) => term !== '')),
  ];
  if (normalized.length === 0) return () => false;
  if (operator === 'equals') {
    const whole = new Set(normalized.map((term) => term.replace(/\s+/g, ' ')));
    return (text) => whole.has(text.trim().toLowerCase().replace(/\s+/g, ' '));
  }
  const alternatives = normalized
    .sort((a, b) => b.length - a.length)
    .map((term) => escapeRegExp(term).replace(/\s+/g, '\\s+'));
  const pattern = new RegExp(`${WORD_EDGE_BEFORE}(?:${alternatives.join('|')})${WORD_EDGE_AFTER}`, 'iu');
  return (text) => pattern.test(text);
}

/** Every string inside a custom message's data, each on its own line. */
function stringsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

/** What a rule's `operand` reads of a message: a text message's text, a custom message's strings. */
function operandsOf(
  request: Pick<MessageRequest, 'category' | 'type' | 'data'>,
): Partial<Record<'text' | 'custom', string>> {
  const data = request.data as { text?: unknown; customData?: unknown };
  if (request.category === 'message' && request.type === 'text' && typeof data.text === 'string')
    return { text: data.text };
  if (request.category === 'custom') return { custom: stringsIn(data.customData).join('\n') };
  return {};
}

/**
 * The app's enabled moderation rules, compiled and kept in memory per app (`AppCache`: forgotten
 * when any process changes the app's rules or keyword lists). A send asks `heldBy`: for an app
 * without an enabled rule that is one map lookup, and the message goes on unchecked.
 */
export class ContentRules {
  readonly #cache: AppCache<CompiledRule[]>;

  constructor(
    private readonly repository: ModerationRuleRepository,
    notices: ChangeNotices,
  ) {
    this.#cache = new AppCache('moderation-rules', notices);
  }

  /** After the app's rules or keyword lists changed (and the change committed). */
  changed(appId: string): void {
    this.#cache.changed(appId);
  }

  /** Holds back the messages a rule blocked for review, each under the message id reserved for it. */
  hold(appId: string, held: ReadonlyArray<{ id: number; draft: HeldDraft }>, heldBy: HeldBy): Promise<void> {
    return this.repository.hold(appId, held, heldBy, nowSeconds());
  }

  /** The first enabled rule (newest first) with a condition the message matches, if any. */
  async heldBy(
    appId: string,
    request: Pick<MessageRequest, 'category' | 'type' | 'data'>,
  ): Promise<HeldBy | undefined> {
    const rules = await this.#cache.get(appId, () => this.compile(appId));
    if (rules.length === 0) return undefined;
    const operands = operandsOf(request);
    for (const { rule, conditions } of rules) {
      for (const { condition, operand, matches } of conditions) {
        const text = operands[operand];
        if (text !== undefined && matches(text)) return { rule, condition };
      }
    }
    return undefined;
  }

  private async compile(appId: string): Promise<CompiledRule[]> {
    const rules = (await this.repository.rules(appId)).filter((rule) => rule.enabled);
    if (rules.length === 0) return [];
    const listIds = new Set(
      rules.flatMap((rule) =>
        rule.conditions.flatMap((condition) => (condition.isKeywordsReferencePresent ? condition.value : [])),
      ),
    );
    const lists = new Map(
      (await this.repository.keywordLists(appId, [...listIds])).map((list) => [list.id, list.searchTerms]),
    );
    return rules.map((rule: ModerationRule) => ({
      rule: { id: rule.id, name: rule.name, revisionId: rule.revisionId, action: rule.action },
      conditions: rule.conditions.map((condition) => ({
        condition,
        operand: condition.operand,
        matches: matcherOf(
          condition.operator,
          condition.isKeywordsReferencePresent
            ? condition.value.flatMap((id) => lists.get(id) ?? [])
            : condition.value,
        ),
      })),
    }));
  }
}
