import { Controller, Delete, Get, HttpCode, Param, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  API_FILE_CONTENT_MAX_BYTES,
  AppError,
  ApiFileContentSchema,
  ApiFileSchema,
  ApiUploadFileRequestSchema,
  ControlSubjects as S,
  ListParamsSchema,
  fileToApi,
  type Actor,
  type ApiUploadFileRequest,
  type ListParams,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { DocReply } from '../docs/doc-reply.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

/** `/api/files`: text files in JSON over the same store as `/v1/files`. */
@Controller('api/files')
@UseFilters(ApiErrorFilter)
export class ApiFilesController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @DocReply(ApiFileSchema)
  async upload(
    @CurrentActor() actor: Actor,
    @ZodBody(ApiUploadFileRequestSchema) body: ApiUploadFileRequest,
  ) {
    const content = Buffer.from(body.content, 'utf8');
    if (content.byteLength > API_FILE_CONTENT_MAX_BYTES) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `content: ${content.byteLength} bytes exceeds the limit of ${API_FILE_CONTENT_MAX_BYTES} bytes`,
      );
    }
    const file = await this.rpc.request(S.uploadFile, {
      actor,
      body: {
        filename: body.filename,
        mime_type: body.contentType ?? 'text/plain',
        content_base64: content.toString('base64'),
      },
    });
    return fileToApi(file);
  }

  @Get()
  @DocReply(ApiFileSchema, { list: true })
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(ListParamsSchema) query: ListParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return toApiList(reply, await this.rpc.request(S.listFiles, { actor, query }), fileToApi);
  }

  @Get(':id')
  @DocReply(ApiFileSchema)
  async get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return fileToApi(await this.rpc.request(S.getFile, { actor, id }));
  }

  @Get(':id/content')
  @DocReply(ApiFileContentSchema)
  async content(@CurrentActor() actor: Actor, @Param('id') id: string) {
    const file = await this.rpc.request(S.downloadFile, { actor, id });
    return {
      id,
      filename: file.filename,
      content: Buffer.from(file.content_base64, 'base64').toString('utf8'),
    };
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.rpc.request(S.deleteFile, { actor, id });
  }
}
