import { z } from 'zod';

/** Why a session went idle. `interrupted` is an Agentry extension; CMA ends interrupted turns with `end_turn`. */
export const StopReasonSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('end_turn') }),
  z.object({ type: z.literal('requires_action'), event_ids: z.array(z.string()).min(1) }),
  z.object({ type: z.literal('retries_exhausted') }),
  z.object({ type: z.literal('budget_reached') }),
  z.object({ type: z.literal('interrupted') }),
  z.object({ type: z.literal('refusal') }),
]);
export type StopReason = z.infer<typeof StopReasonSchema>;

export const RefusalStopDetailsSchema = z.object({
  type: z.literal('refusal'),
  category: z.enum(['cyber', 'bio', 'frontier_llm', 'reasoning_extraction', 'general_harms']).nullable(),
  explanation: z.string().nullable(),
});
