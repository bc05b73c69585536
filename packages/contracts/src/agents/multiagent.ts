import { z } from 'zod';

/** Multi-agent configuration of an agent (CMA `multiagent`); depth is limited to one level. */

const MAX_ROSTER = 20;

const AgentReferenceParamsSchema = z.strictObject({
  type: z.literal('agent'),
  id: z.string().min(1),
  version: z.number().int().min(1).optional(),
});
const SelfParamsSchema = z.strictObject({ type: z.literal('self') });
const AdvisorParamsSchema = z.strictObject({ type: z.literal('advisor'), model: z.string().min(1) });

/** Roster entries: an agent id (latest version), a pinned reference, the agent itself, or an advisor. */
const RosterEntryParamsSchema = z.union([
  z.string().min(1),
  z.discriminatedUnion('type', [AgentReferenceParamsSchema, SelfParamsSchema, AdvisorParamsSchema]),
]);
const PredefinedAgentParamsSchema = z.union([
  z.string().min(1),
  z.discriminatedUnion('type', [AgentReferenceParamsSchema, SelfParamsSchema]),
]);

const EnabledFlagParamsSchema = z.strictObject({ type: z.enum(['enabled', 'disabled']) });
const SubagentsParamsSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('enabled'),
    inline_agents: EnabledFlagParamsSchema.nullable().optional(),
    predefined_agents: z.array(PredefinedAgentParamsSchema).max(MAX_ROSTER).nullable().optional(),
  }),
  z.strictObject({ type: z.literal('disabled') }),
]);

export const MultiagentParamsSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('coordinator'),
    agents: z.array(RosterEntryParamsSchema).min(1).max(MAX_ROSTER),
  }),
  z.strictObject({
    type: z.literal('multiagent_20261001'),
    advisor: z
      .discriminatedUnion('type', [
        z.strictObject({ type: z.literal('enabled'), model: z.string().min(1) }),
        z.strictObject({ type: z.literal('disabled') }),
      ])
      .nullable()
      .optional(),
    subagents: SubagentsParamsSchema.nullable().optional(),
    workflows: SubagentsParamsSchema.nullable().optional(),
  }),
]);
export type MultiagentParams = z.infer<typeof MultiagentParamsSchema>;

export const AgentReferenceSchema = z.object({
  type: z.literal('agent'),
  id: z.string(),
  version: z.number().int(),
});

/**
 * As returned on an agent: the roster as it was configured. A reference without a version is not pinned;
 * the agent's latest version is used when a thread starts.
 */
export const MultiagentSchema = MultiagentParamsSchema;
