import { z } from 'zod';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import { AGENT_WORKSPACE_MAX_SKILL_RESOURCES, ApiWorkspaceEntrySchema } from './api-agent-workspace.js';

/**
 * The `workspace_files` table belongs to the dataplane, whose turns write the agent's memory there.
 * Control serves the agent-workspace API: it checks access, paths and limits and reads the rows itself,
 * then asks the dataplane to apply the changes. This subject is the only way another service writes them.
 */
const AgentWorkspaceChangeSchema = z.discriminatedUnion('op', [
  /** Creates or replaces a file (parents created), at most AGENT_WORKSPACE_MAX_FILE_BYTES. */
  z.object({ op: z.literal('write'), path: z.string().min(1), content: z.string() }),
  z.object({ op: z.literal('delete'), path: z.string().min(1), recursive: z.boolean() }),
  z.object({ op: z.literal('move'), from: z.string().min(1), to: z.string().min(1) }),
]);
export type AgentWorkspaceChange = z.infer<typeof AgentWorkspaceChangeSchema>;

export const AgentWorkspaceRowSubjects = {
  /**
   * Applies `changes` in order to the agent's workspace (paths already checked by control). The first
   * change that fails answers its error (the workspace's own: NOT_FOUND, ALREADY_EXISTS, PAYLOAD_TOO_LARGE…)
   * with the changes before it kept, as a sequence of single writes would. `entries` has one item per
   * change: the file written, the entry moved (at its new path), `null` for a delete.
   */
  apply: rpcSubject(
    'dataplane.agent-workspace-rows.apply',
    z.object({
      v: V1,
      actor: ActorSchema,
      agentId: z.string().min(1),
      // A skill PUT: the old folder's delete, SKILL.md and its resources.
      changes: z
        .array(AgentWorkspaceChangeSchema)
        .min(1)
        .max(AGENT_WORKSPACE_MAX_SKILL_RESOURCES + 2),
    }),
    z.object({ entries: z.array(ApiWorkspaceEntrySchema.nullable()) }),
  ),
} as const;
