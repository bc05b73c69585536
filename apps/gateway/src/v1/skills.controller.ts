import { Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { AppError, ControlSubjects as S, type Actor } from '@agentry/contracts';
import {
  CreateSkillFormSchema,
  ListParamsSchema,
  ListSkillsParamsSchema,
  type ListParams,
  type ListSkillsParams,
} from '@agentry/contracts/v1';
import { RpcClient } from '@agentry/platform';
import type { FastifyRequest } from 'fastify';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { parseOrThrow, ZodQuery } from '../http/zod-params.js';
import { readMultipartForm } from './multipart-body.parser.js';
import { SessionSkillRoute } from '../workers/worker-route.decorator.js';

/** The `files[]` parts of a skill upload, each keeping the path the client gave it. */
async function readSkillFiles(form: FormData): Promise<{ path: string; content_base64: string }[]> {
  const parts = [...form.getAll('files[]'), ...form.getAll('files')];
  if (parts.length === 0)
    throw new AppError('INVALID_REQUEST', 'files: upload the skill folder as files[] parts');
  return Promise.all(
    parts.map(async (part, i) => {
      if (!(part instanceof File)) throw new AppError('INVALID_REQUEST', `files.${i}: must be a file part`);
      return { path: part.name, content_base64: Buffer.from(await part.arrayBuffer()).toString('base64') };
    }),
  );
}

@Controller('v1/skills')
export class SkillsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  async create(@CurrentActor() actor: Actor, @Req() request: FastifyRequest) {
    const form = await readMultipartForm(request);
    const fields = parseOrThrow(
      CreateSkillFormSchema,
      { display_name: form.get('display_name') ?? undefined },
      'body',
    );
    return this.rpc.request(S.createSkill, {
      actor,
      body: { files: await readSkillFiles(form), display_name: fields.display_name },
    });
  }

  @Get()
  list(@CurrentActor() actor: Actor, @ZodQuery(ListSkillsParamsSchema) query: ListSkillsParams) {
    return this.rpc.request(S.listSkills, { actor, query });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getSkill, { actor, id });
  }

  @Delete(':id')
  delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.deleteSkill, { actor, id });
  }

  @Post(':id/versions')
  @HttpCode(200)
  async createVersion(
    @CurrentActor() actor: Actor,
    @Param('id') skillId: string,
    @Req() request: FastifyRequest,
  ) {
    const form = await readMultipartForm(request);
    return this.rpc.request(S.createSkillVersion, {
      actor,
      skillId,
      body: { files: await readSkillFiles(form) },
    });
  }

  @Get(':id/versions')
  listVersions(
    @CurrentActor() actor: Actor,
    @Param('id') skillId: string,
    @ZodQuery(ListParamsSchema) query: ListParams,
  ) {
    return this.rpc.request(S.listSkillVersions, { actor, skillId, query });
  }

  @Get(':id/versions/:version')
  @SessionSkillRoute()
  getVersion(@CurrentActor() actor: Actor, @Param('id') skillId: string, @Param('version') version: string) {
    return this.rpc.request(S.getSkillVersion, { actor, skillId, version });
  }
}
