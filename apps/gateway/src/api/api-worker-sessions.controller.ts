import { Controller, Get, HttpCode, Param, Post, UseFilters } from '@nestjs/common';
import {
  AppError,
  ControlSubjects,
  DataplaneSubjects,
  SendEventsRequestSchema,
  SkillFileSubjects,
  WorkSubjects,
  type Actor,
  type AgentSkill,
  type WorkPrincipal,
} from '@agentry/contracts';
import {
  ApiToolResultsRequestSchema,
  apiEventToV1,
  pendingToolToApi,
  skillFilesToApi,
  v1EventToApi,
  type ApiSessionSkill,
  type ApiToolResult,
  type ApiToolResultsRequest,
} from '@agentry/contracts/api';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { parseOrThrow, ZodBody } from '../http/zod-params.js';
import { CurrentWorkPrincipal } from '../workers/current-work-principal.decorator.js';
import { EnvironmentSessionRoute } from '../workers/worker-route.decorator.js';
import { ApiErrorFilter } from './api-error.filter.js';

/**
 * What an AgentScope worker reads and writes for one session of its environment: the tool calls waiting
 * for it, their results (appended as `user.tool_result` events), and the agent's skills to lay out on
 * disk. The guard has checked that the session runs in the environment of the key.
 */
@Controller('api/environments/:id/sessions/:sessionId')
@UseFilters(ApiErrorFilter)
export class ApiWorkerSessionsController {
  constructor(private readonly rpc: RpcClient) {}

  /** `agent.tool_use` events still without a result, in seq order. */
  @Get('pending-tools')
  @EnvironmentSessionRoute()
  async pendingTools(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @Param('sessionId') sessionId: string,
  ) {
    const pending = await this.rpc.request(WorkSubjects.pendingTools, { principal, sessionId });
    return pending.data.map(pendingToolToApi);
  }

  /** All results in one batch (all or nothing); the turn resumes once every pending call has one. */
  @Post('tool-results')
  @HttpCode(200)
  @EnvironmentSessionRoute()
  async toolResults(
    @CurrentActor() actor: Actor,
    @Param('sessionId') sessionId: string,
    @ZodBody(ApiToolResultsRequestSchema) body: ApiToolResultsRequest,
  ) {
    const { events } = parseOrThrow(
      SendEventsRequestSchema,
      { events: body.results.map(toToolResultEvent) },
      'body',
    );
    const result = await this.rpc.request(DataplaneSubjects.appendEvents, { actor, sessionId, events });
    return result.data.map((stored) => v1EventToApi(stored.event, { sessionId, seq: stored.seq }));
  }

  /** The session agent's skills with SKILL.md and every resource file (base64). */
  @Get('skills')
  @EnvironmentSessionRoute()
  async skills(@CurrentActor() actor: Actor, @Param('sessionId') sessionId: string) {
    const session = await this.rpc.request(ControlSubjects.getSession, { actor, id: sessionId });
    const skills = await Promise.all(session.agent.skills.map((skill) => this.skillFiles(actor, skill)));
    return {
      sessionId,
      agentId: session.agent.id,
      skills: skills.filter((s): s is ApiSessionSkill => s !== null),
    };
  }

  /** A skill deleted since the agent version was made is left out rather than failing the rest. */
  private async skillFiles(actor: Actor, skill: AgentSkill): Promise<ApiSessionSkill | null> {
    try {
      const files = await this.rpc.request(SkillFileSubjects.getVersionFiles, {
        actor,
        skillId: skill.skill_id,
        version: skill.version,
      });
      return skillFilesToApi(files, skill.type);
    } catch (error) {
      if (AppError.is(error, 'NOT_FOUND')) return null;
      throw error;
    }
  }
}

function toToolResultEvent(result: ApiToolResult, index: number) {
  const toolUseId = result.tool_use_id ?? result.toolUseId;
  if (!toolUseId)
    throw new AppError('INVALID_REQUEST', `results.${index}.toolUseId: required (tool_use_id or toolUseId)`);
  const text = typeof result.content === 'string' ? result.content : result.output;
  return apiEventToV1({
    type: 'user.tool_result',
    payload: {
      tool_use_id: toolUseId,
      ...(Array.isArray(result.content)
        ? { content: result.content }
        : text !== undefined
          ? { output: text }
          : {}),
      is_error: result.is_error ?? result.isError ?? undefined,
    },
  });
}
