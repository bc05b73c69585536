import { z } from 'zod';
import {
  SystemMessageEventParamsSchema,
  UserCustomToolResultEventParamsSchema,
  UserDefineOutcomeEventParamsSchema,
  UserInterruptEventParamsSchema,
  UserMessageEventParamsSchema,
  UserToolConfirmationEventParamsSchema,
  UserMcpElicitationResponseEventParamsSchema,
  UserToolResultEventParamsSchema,
} from './inbound-events.js';

/** Inbound events as persisted: the request fields plus what the platform adds (thread, outcome id). */

const ThreadRef = { session_thread_id: z.string().nullable().optional() };

export const UserMessagePayloadSchema = z.object(UserMessageEventParamsSchema.shape);
export const UserInterruptPayloadSchema = z.object(UserInterruptEventParamsSchema.shape);
export const UserToolConfirmationPayloadSchema = z.object({
  ...UserToolConfirmationEventParamsSchema.shape,
  ...ThreadRef,
});
export const UserToolResultPayloadSchema = z.object({
  ...UserToolResultEventParamsSchema.shape,
  ...ThreadRef,
});
export const UserCustomToolResultPayloadSchema = z.object({
  ...UserCustomToolResultEventParamsSchema.shape,
  ...ThreadRef,
});
export const UserDefineOutcomePayloadSchema = z.object({
  ...UserDefineOutcomeEventParamsSchema.shape,
  outcome_id: z.string(),
  max_iterations: z.number().int().min(1).max(20).nullable(),
});
export const SystemMessagePayloadSchema = z.object(SystemMessageEventParamsSchema.shape);
export const UserMcpElicitationResponsePayloadSchema = z.object({
  ...UserMcpElicitationResponseEventParamsSchema.shape,
  ...ThreadRef,
  /** Who answered; null when no sender was recorded. */
  sent_by: z.record(z.string(), z.unknown()).nullable().optional(),
});
