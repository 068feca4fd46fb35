import { z } from 'zod';
import { EpochSeconds, Message, Uid } from './message.js';

/**
 * Moderation rules as CometChat's REST API has them (`/moderation/rules`, `/moderation/keywords`,
 * `/moderation/blocked-messages`): keyword lists, and rules whose conditions look at what a message
 * says and whose action blocks it. Parley evaluates word conditions on text and custom messages
 * itself; conditions that need an AI service (images, videos) or a regular-expression engine
 * (`category: "pattern"`) are refused with a 400 naming the field.
 */

const Name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const Description = z.string().max(1000, 'must be at most 1000 characters');

/** One word or phrase a condition or keyword list looks for, matched whole and case-insensitively. */
const SearchTerm = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

export const MAX_KEYWORD_LIST_TERMS = 10_000;
export const MAX_RULE_CONDITIONS = 20;
export const MAX_CONDITION_VALUES = 1_000;

/** What a rule does with a message one of its conditions matches: hold it back for review. */
export const ModerationAction = z.enum(['blockMessage'], {
  error: 'must be blockMessage (the only action Parley takes)',
});
export type ModerationAction = z.infer<typeof ModerationAction>;

/**
 * A condition: the message's `operand` (a text message's text, or a custom message's string
 * values) `contains` one of `value` as a whole word or phrase, or `equals` one. With
 * `isKeywordsReferencePresent`, `value` names keyword lists whose terms are looked for instead.
 */
export const ModerationConditionRequest = z.strictObject({
  id: z.number().int().positive().optional(),
  isKeywordsReferencePresent: z.boolean().optional(),
  isMediaPresent: z
    .literal(false, { error: 'media conditions need an AI service Parley does not run' })
    .optional(),
  entity: z.literal('message', { error: 'must be message' }),
  operand: z.enum(['text', 'custom'], { error: 'must be text or custom (media needs an AI service)' }),
  category: z.literal('word', { error: 'must be word (pattern conditions are not evaluated)' }),
  operator: z.enum(['contains', 'equals'], { error: 'must be contains or equals' }),
  value: z
    .array(SearchTerm)
    .min(1, 'must name at least one term')
    .max(MAX_CONDITION_VALUES, `must hold at most ${MAX_CONDITION_VALUES} terms`),
  message: z.array(z.string().max(1000, 'must be at most 1000 characters')).max(20).optional(),
});
export type ModerationConditionRequest = z.infer<typeof ModerationConditionRequest>;

export const ModerationCondition = ModerationConditionRequest.extend({
  id: z.number().int(),
  isKeywordsReferencePresent: z.boolean(),
  isMediaPresent: z.boolean(),
});
export type ModerationCondition = z.infer<typeof ModerationCondition>;

const Conditions = z
  .array(ModerationConditionRequest)
  .min(1, 'must hold at least one condition')
  .max(MAX_RULE_CONDITIONS, `must hold at most ${MAX_RULE_CONDITIONS} conditions`);
const Actions = z.array(ModerationAction).min(1, 'must name an action');

/** `POST /moderation/rules`. */
export const CreateModerationRuleRequest = z.strictObject({
  id: Uid,
  name: Name,
  description: Description.optional(),
  enabled: z.boolean().optional(),
  conditions: Conditions,
  action: Actions,
});
export type CreateModerationRuleRequest = z.infer<typeof CreateModerationRuleRequest>;

/** `PUT /moderation/rules/{id}`: what changes; each write is a new revision. */
export const UpdateModerationRuleRequest = z
  .strictObject({
    name: Name.optional(),
    description: Description.optional(),
    enabled: z.boolean().optional(),
    conditions: Conditions.optional(),
    action: Actions.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'name, description, enabled, conditions or action is required',
    path: ['name'],
  });
export type UpdateModerationRuleRequest = z.infer<typeof UpdateModerationRuleRequest>;

/** A rule as the API answers it, one revision of it in `GET …/revisions`. */
export const ModerationRule = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  conditions: z.array(ModerationCondition),
  action: z.array(ModerationAction),
  active: z.boolean(),
  createdAt: EpochSeconds,
  updatedAt: EpochSeconds,
  revisionId: z.string(),
});
export type ModerationRule = z.infer<typeof ModerationRule>;

/** `POST /moderation/keywords` (as JSON). */
export const CreateKeywordListRequest = z.strictObject({
  id: Uid,
  name: Name,
  description: Description.optional(),
  category: z.literal('word', { error: 'must be word' }).optional(),
  searchTerms: z
    .array(SearchTerm)
    .min(1, 'must hold at least one term')
    .max(MAX_KEYWORD_LIST_TERMS, `must hold at most ${MAX_KEYWORD_LIST_TERMS} terms`),
});
export type CreateKeywordListRequest = z.infer<typeof CreateKeywordListRequest>;

export const UpdateKeywordListRequest = CreateKeywordListRequest.omit({ id: true, category: true })
  .partial()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'name, description or searchTerms is required',
    path: ['searchTerms'],
  });
export type UpdateKeywordListRequest = z.infer<typeof UpdateKeywordListRequest>;

export const KeywordList = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.literal('word'),
  isCSV: z.boolean(),
  searchTerms: z.array(z.string()),
  active: z.boolean(),
  createdAt: EpochSeconds,
  updatedAt: EpochSeconds,
  revisionId: z.string(),
});
export type KeywordList = z.infer<typeof KeywordList>;

/** Where a blocked message stands: held for review, delivered once approved, or kept back. */
export const BlockedMessageStatus = z.enum(['blocked', 'approved', 'rejected']);
export type BlockedMessageStatus = z.infer<typeof BlockedMessageStatus>;

/** One message a rule held back, as `GET /moderation/blocked-messages` lists it. */
export const BlockedMessage = z.object({
  ruleId: z.string(),
  ruleName: z.string(),
  revisionId: z.string(),
  condition: ModerationCondition,
  message: Message,
  action: z.array(ModerationAction),
  status: BlockedMessageStatus,
  /**
   * Once approved: the id of the message delivered, the message's own id (another only when its
   * sender's `muid` had been stored already, naming that message).
   */
  deliveredMessageId: z.string().optional(),
  createdAt: EpochSeconds,
  updatedAt: EpochSeconds,
});
export type BlockedMessage = z.infer<typeof BlockedMessage>;

/**
 * `PATCH /moderation/blocked-messages/{id}`: `approved` delivers the message, `rejected` keeps it
 * back (`reviewed`, which CometChat's document also names, is accepted and implied).
 */
export const ReviewBlockedMessageRequest = z.strictObject({
  status: z.enum(['approved', 'rejected'], { error: 'must be approved or rejected' }),
  reviewed: z.boolean().optional(),
});
export type ReviewBlockedMessageRequest = z.infer<typeof ReviewBlockedMessageRequest>;
