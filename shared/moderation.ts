import { z } from 'zod';
import { EpochSeconds, Message, Uid, UserEntity } from './message.js';

/**
 * Moderation: the reasons a user may flag a message for, as CometChat's SDK reads them from the app
 * settings (`flagReasons`, `getFlagReasons()`) and its REST API lists them (`/moderation/reasons`),
 * and flagged messages as the dashboard and `GET /moderation/flagged-messages` show them.
 */
export const FlagReason = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  default: z.boolean(),
  createdAt: EpochSeconds,
  updatedAt: EpochSeconds,
});
export type FlagReason = z.infer<typeof FlagReason>;

/** Every app's reasons, like CometChat's defaults: ids are what a flag names. */
export const DEFAULT_FLAG_REASONS: ReadonlyArray<Pick<FlagReason, 'id' | 'name' | 'description'>> = [
  { id: 'spam', name: 'Spam', description: 'Unsolicited, repetitive or promotional content.' },
  { id: 'harassment', name: 'Harassment', description: 'Bullying, threats or targeting a person.' },
  {
    id: 'inappropriate',
    name: 'Inappropriate content',
    description: 'Sexual, violent or otherwise offensive content.',
  },
  { id: 'hate_speech', name: 'Hate speech', description: 'Attacks on people for who they are.' },
  { id: 'misinformation', name: 'Misinformation', description: 'False or misleading information.' },
  { id: 'other', name: 'Other', description: 'Something else: the remark says what.' },
];

const ReasonName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const ReasonDescription = z.string().max(1000, 'must be at most 1000 characters');

/** `POST /moderation/reasons`: a reason of the app's own, beside the defaults. */
export const CreateFlagReasonRequest = z.strictObject({
  id: Uid,
  name: ReasonName,
  description: ReasonDescription.optional(),
});
export type CreateFlagReasonRequest = z.infer<typeof CreateFlagReasonRequest>;

export const UpdateFlagReasonRequest = z
  .strictObject({ name: ReasonName.optional(), description: ReasonDescription.optional() })
  .refine((body) => body.name !== undefined || body.description !== undefined, {
    message: 'name or description is required',
    path: ['name'],
  });
export type UpdateFlagReasonRequest = z.infer<typeof UpdateFlagReasonRequest>;

export const MAX_FLAG_REMARK_LENGTH = 1000;

/**
 * `POST /messages/{id}/flagged`: the REST API names the reason `reasonId`, CometChat's SDK sends it
 * as `id`; either is accepted, one is required.
 */
export const FlagMessageRequest = z
  .object({
    reasonId: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
    id: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
    remark: z
      .string()
      .max(MAX_FLAG_REMARK_LENGTH, `must be at most ${MAX_FLAG_REMARK_LENGTH} characters`)
      .optional(),
  })
  .refine((body) => body.reasonId !== undefined || body.id !== undefined, {
    message: 'a reason id is required',
    path: ['reasonId'],
  });
export type FlagMessageRequest = z.infer<typeof FlagMessageRequest>;

/** One user's flag on a message. */
export const MessageFlag = z.object({
  flaggedBy: UserEntity,
  reason: FlagReason.pick({ id: true, name: true }),
  remark: z.string().optional(),
  flaggedAt: EpochSeconds,
});
export type MessageFlag = z.infer<typeof MessageFlag>;

export const ReviewStatus = z.enum(['approved', 'disapproved'], { error: 'must be approved or disapproved' });
export type ReviewStatus = z.infer<typeof ReviewStatus>;

/** `PATCH /moderation/flagged-messages/{id}`: approve the message, or disapprove (delete) it. */
export const ReviewFlaggedMessageRequest = z.object({ status: ReviewStatus });

/** A flagged message with every flag on it, newest flag first; reviewed ones say how and when. */
export const FlaggedMessage = z.object({
  message: Message,
  flags: z.array(MessageFlag),
  lastFlaggedAt: EpochSeconds,
  review: z.object({ status: ReviewStatus, reviewedAt: EpochSeconds }).optional(),
});
export type FlaggedMessage = z.infer<typeof FlaggedMessage>;
